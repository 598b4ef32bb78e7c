"""The bottom layer: problems and where they were written (problems, source), reading YAML under
limits (yamlread), validation into models (validation, fields, textcheck), paper sizes, build
options and artifacts (build), bounded child processes (bounded), the fork helper (parallel), atomic
writes, the user's config, progress bars. Nothing here draws, and nothing imports upward.
"""
