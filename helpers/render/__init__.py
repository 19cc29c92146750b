"""Drawing and publishing: the theme and offline renderer (`theme`), PNG/SVG/HTML export
(`export`), executing the notebooks in place (`execute`, `make report`) and building the
static report from them (`site`)."""
