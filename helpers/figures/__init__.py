"""The paper figures, one module per figure named as its data resource, notebook and chart:
the analyses its notebook runs and the inputs of its simulations."""
