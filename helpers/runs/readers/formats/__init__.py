"""Log files read on their own: per-step metric logs and their column names, frameworks' own
logs, evaluation harnesses' per-sample files and their results, answer dumps, tables of runs
and of models."""
