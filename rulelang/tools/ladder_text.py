"""The terminal view of `rulelang balance --ladder`: the links, the chain, the ratings and the coin share."""
from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.console import Console
from rich.table import Table

from rulelang.tools.documents import LadderReport
from rulelang.tools.stats import format_p


def pct(v: float | None) -> str:
    return "-" if v is None or v != v else f"{100 * v:.1f}%"


def pct_interval(ci: Sequence[float | None] | None) -> str:
    return "-" if not ci or ci[0] != ci[0] else f"[{pct(ci[0])}, {pct(ci[1])}]"


def _table(console: Console, *cols: tuple[str, str]) -> Table:
    """A table with rich lines at a terminal and plain ASCII (`+---+`) when piped."""
    t = Table(show_header=True, header_style="bold", box=box.HEAVY_HEAD if console.is_terminal else box.ASCII)
    for col, just in cols:
        t.add_column(col, justify=just)  # type: ignore[arg-type]
    return t


def _steps(n: int) -> str:
    return f"{n} step" + ("" if n == 1 else "s")


def _coin(v: float) -> str:
    """The coin share as a club says it: 'about 35%'."""
    return f"about {100 * v:.0f}%"


def summary(rep: LadderReport) -> list[str]:
    """What the ladder found, in words a club understands: one sentence per ruleset, then the comparison's."""
    st = rep["study"]
    bar = st["bars"][0]
    out = []
    for name, v in rep["variants"].items():
        length = next(c["length"] for c in v["chain"] if c["bar"] == bar)
        climbed = [v["links"][0]["lower"]] + [link["upper"] for link in v["links"][:length]] if v["links"] else []
        coin = _coin(v["coin_share"]["value"])
        if length:
            out.append(f"In {name}, better play wins: the ladder climbs {_steps(length)} ({' < '.join(climbed)}), "
                       f"each player beating the one below in at least {100 * bar:g}% of matches; {coin} of the "
                       "results are as good as a coin toss.")
        else:
            out.append(f"In {name}, luck weighs heavily: even {v['links'][0]['upper']} does not beat "
                       f"{v['links'][0]['lower']} in {100 * bar:g}% of matches; {coin} of the results are as good "
                       "as a coin toss.")
    if "comparison" in rep:
        out.append(verdict(rep))
    return out


def verdict(rep: LadderReport) -> str:
    """One sentence on what the second ruleset does to skill, e.g. 'B rewards skill more than A: ...'."""
    a, b = rep["study"]["names"]
    rows = {r["figure"]: r for r in rep["comparison"]["rows"]}
    coin = rows["coin share"]
    bar = rep["study"]["bars"][0]
    chain = rows[f"chain length at {100 * bar:g}%"]
    figs = (f"{_coin(coin['b'])} of the results are as good as a coin toss with {b}, {_coin(coin['a'])} with {a}; "
            f"the ladder climbs {_steps(int(chain['b']))} with {b}, {_steps(int(chain['a']))} with {a}")
    if coin["significant"] or chain["significant"]:
        more = coin["difference"] < 0 if coin["significant"] else chain["difference"] > 0
        return (f"{b} rewards skill more than {a}: the better player wins more often ({figs})." if more else
                f"{b} leaves more to luck than {a}: the better player wins less often ({figs}).")
    return f"{b} and {a} reward skill about equally: at this sample size the ladder sees no clear difference ({figs})."


def show(rep: LadderReport, console: Console) -> None:
    st = rep["study"]
    who = "teams" if st["partnerships"] else "seats"
    console.print(f"Skill ladder, {st['players']} players ({st['sides']} {who}), seed {st['seed']}, "
                  f"{st['link_matches']} matches per link (every deal played from each side in turn)")
    for name, v in rep["variants"].items():
        console.print(f"\n[bold]{name}[/bold]")
        h2h = st["sides"] > 2
        cols = [("link", "left"), ("upper's share", "right"), ("95% interval", "right")]
        cols += [("head to head", "right"), ("95% interval", "right")] if h2h else []
        cols += [("matches", "right"), ("draws", "right")] + [(f">= {100 * b:g}%", "center") for b in st["bars"]]
        t = _table(console, *cols)
        for link in v["links"]:
            cells = [f"{link['upper']} vs {link['lower']}", pct(link["share"]), pct_interval(link["ci95"])]
            if h2h:
                cells += [pct(link["head_to_head"]), pct_interval(link["head_to_head_ci95"])]
            cells += [str(link["matches"]), str(link["draws"])]
            cells += ["yes" if link["head_to_head"] >= b else "no" for b in st["bars"]]
            t.add_row(*cells)
        console.print(t)
        stop = ("the top rung was reached" if v["stopped"] == "top"
                else "the ladder stopped at the first rung that no longer beat the one below")
        for c in v["chain"]:
            console.print(f"chain length at {100 * c['bar']:g}%: {c['length']} (95% interval "
                          f"{c['ci95'][0]:.0f} to {c['ci95'][1]:.0f}); {stop}")
        t = _table(console, ("player", "left"), ("rating", "right"), ("95% interval", "right"), ("Elo", "right"), ("95% interval", "right"))
        for r in v["ratings"]:
            t.add_row(r["player"], f"{r['rating']:.2f}", f"[{r['ci95'][0]:.2f}, {r['ci95'][1]:.2f}]", f"{r['elo']:.0f}",
                      f"[{r['elo_ci95'][0]:.0f}, {r['elo_ci95'][1]:.0f}]")
        console.print(t)
        cs = v["coin_share"]
        console.print(f"coin share: {pct(cs['value'])} {pct_interval(cs['ci95'])}: as skill-based as a game the higher "
                      f"rung always wins with {pct(cs['value'])} of the results decided by a coin "
                      f"(rating spread {v['spread']['value']:.2f})")
    console.print("\nIntervals: Wilson over matches for shares; Wald for ratings (Bradley-Terry, random = 0, "
                  f"one virtual draw per link); a bootstrap over deals ({st['bootstrap']} resamples) for the chain "
                  "length and the coin share.")
    if "comparison" in rep:
        comp = rep["comparison"]
        a, b = st["names"]
        t = _table(console, ("figure", "left"), (a, "right"), (b, "right"), ("difference", "right"), ("test", "left"),
                   ("p", "right"), ("", "left"))
        for row in comp["rows"]:
            if row["figure"].startswith("chain"):
                va, vb, d = str(row["a"]), str(row["b"]), f"{row['difference']:+d}" if isinstance(row["difference"], int) else f"{row['difference']:+g}"
            else:
                va, vb, d = pct(row["a"]), pct(row["b"]), f"{100 * row['difference']:+.1f} pts"
            t.add_row(row["figure"], va, vb, d, row["test"], format_p(row["p"]), "significant" if row["significant"] else "")
        console.print(t)
        console.print(f"Paired on deals: McNemar's exact test per link, a paired bootstrap for the chain and the coin "
                      f"share; 'significant': p below {comp['alpha']:g} after Holm's correction.")
    console.print()
    for sentence in summary(rep):  # the closing words: what was found, as a club would say it
        console.print(sentence, markup=False)
