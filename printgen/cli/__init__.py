"""The command line: the click group (main), what the commands share (common), and the work behind
the commands that is more than parsing options (workflow: builds and calibration; export, preview,
homebrew, watch). The top layer: nothing else in printgen imports it.
"""
