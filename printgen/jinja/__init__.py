"""Rules and reference texts from Jinja templates, which may come from strangers: plain data in
(plaindata), a sandbox with step and size budgets (sandbox), and each render in a bounded child
(render). Layer: above core and drawing.
"""
