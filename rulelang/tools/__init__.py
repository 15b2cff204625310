"""User tools built on the engine: terminal play, simulation with statistics, SVG rendering.

Modules:
- ``configs``: resolve a variant name / .rules / .json into a configuration dict.
- ``stats``: Wilson intervals, two-proportion z-test, Welch t-test, summaries.
- ``tally``: the paper tally (a stroke per shown point, a big X with four small x for ten).
- ``textboard``: the layout as an indented text tree, hands, events, scores.
- ``geometry`` / ``svg``: collision-free placement of a layout tree and its SVG drawing.
- ``simulation`` / ``plots``: many bot matches in parallel, tables and SVG plots.
- ``session``: the interactive terminal game and transcript replay.
"""
