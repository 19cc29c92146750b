"""A researcher's own runs, in the order the data flows.

1. `readers`: any run's files -> a typed log (`readers.SampleLog` of per-sample answers,
   `ScoreLog` of per-step scores and lengths, `ModelTable` of models), format recognised from
   content.
2. `summarise`: per-sample answers -> accuracy per benchmark and step with intervals counting
   problems, pass@k and response-length percentiles (the query in `query`, run by polars or,
   through `spark`, by Spark).
3. `compare`: runs on the same problems -> paired differences per benchmark and step
   (`paired` holds one comparison's formulas).
4. `choose`: what chart an input gets; `drawable` fits a frame to what a chart can show.

`describe` is what `inspect` prints; `examples` makes the seeded example runs in
`data/examples/`.
"""
