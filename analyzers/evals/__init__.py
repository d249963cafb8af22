"""Execution evaluation: task suites run with and without the skill, judged, compared (issue 11).

- `suite.py` — the task-suite model and its validation (file:line:col for every error);
- `passk.py` — pass@k and the unbiased pass@k estimator;
- `judges.py` — contains, pytest (sandboxed subprocess), llm-rubric, llm-binary;
- `runner.py` — candidate and baseline runs through the gateway, verdicts, the artifact;
- `baseline_cache.py` — baseline results kept 7 days by suite, baseline skill and model;
- `calibrate.py` — binary judges against labelled examples: TPR / TNR with Wilson intervals.
"""
