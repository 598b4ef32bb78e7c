"""Rules and reference texts from Jinja templates, which may come from strangers: plain data in
(plaindata), a sandbox with step and size budgets (sandbox), and the renders themselves, each
file:line located (render, values). Layer: above core and drawing.
"""
