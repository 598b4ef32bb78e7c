"""The command line, the top layer: nothing else in printgen imports it.

`main` is the click group (a table of the commands, each imported only when it runs) and the
entry point; one module per command (`build`, `validate`, `preview`, `serve`, `calibrate`,
`export`, `new`, `schema`, `listing` for `list`); `options`
declares the options several commands share; `common` finds games and reports problems; `engine`
builds games in memory and writes their files; `watch` is the polling loop behind `build --watch`
and `serve`, whose page state is `live`, its pictures `pictures` and its HTTP server `loopback`.
"""
