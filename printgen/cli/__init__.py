"""The command line, the top layer: nothing else in printgen imports it.

`main` is the click group and entry point; one module per command; `options` the shared options,
`common` finding games and reporting problems, `engine` the bounded builds; `watch` and
`pictures` are behind `build --watch` and `serve`.
"""
