"""Strong players that see only what their seat may see, and a referee that tells them the public history.

- `arena`: plays a match, giving each seat its observation plus the round's public history
  (placements, how many tiles each seat drew, when a seat could not place).
- `belief`: samples hidden hands and boneyard consistently with that history (a determinization).
- `pimc`: determinized search (perfect-information Monte Carlo with greedy roll-outs).
- `ismcts`: single-observer information-set Monte Carlo tree search.

The names the command line gives them (`pimc:12`, `strong`, ...) are read by
`rulelang.tools.playernames`.
"""
