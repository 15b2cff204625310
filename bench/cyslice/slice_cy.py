"""The slice of slice_plain.py in Cython's pure-Python mode, annotated (option (B) of bench/README.md, Engine speed).

The same rules as slice_plain.py (`placement_codes`, `Layout.place`, `_lead`, `_spinner`, double-six, no
sniff), with the state in C arrays: the free sides as a value per side key (224 keys) and an unordered list of
the open keys, the legal placements written into a preallocated array, the tables in a `cclass`. Still a .py
file: under CPython `import cython` is Cython's shadow module and the arrays are lists (`cython.compiled`).
`codes` builds the engine's `list[int]` from the array; `replay` does not (`fill` only).
"""
import cython

NK = 224  # side keys: tile << 3 | side, 28 tiles
NOPEN = 128  # open sides at most (a layout of 28 tiles has far fewer)


@cython.final
@cython.cclass
class Tables:
    """The tile tables and what the layout reads of its configuration, as C arrays."""

    lo: cython.int[28]
    hi: cython.int[28]
    pips: cython.int[28]
    dbl: cython.int[28]
    dv: cython.int[28]
    tv: cython.int[49]  # tv[v * 7 + k]: the k-th tile (ascending) with a half of value v
    branch_every: cython.bint
    branch_first: cython.bint
    branch_lead: cython.bint
    branch_after_lead: cython.bint
    at_once: cython.bint

    def __init__(self, dv: tuple, every: bool, first: bool, lead: bool, after_lead: bool, at_once: bool):
        i: cython.int
        a: cython.int
        b: cython.int
        n: cython.int[7]
        if not cython.compiled:
            self.lo, self.hi, self.pips, self.dbl, self.dv = [0] * 28, [0] * 28, [0] * 28, [0] * 28, [0] * 28
            self.tv = [0] * 49
            n = [0] * 7
        for i in range(7):
            n[i] = 0
        i = 0
        for a in range(7):
            for b in range(a, 7):
                self.lo[i] = a
                self.hi[i] = b
                self.pips[i] = a + b
                self.dbl[i] = a == b
                self.dv[i] = dv[i]
                self.tv[a * 7 + n[a]] = i
                n[a] += 1
                if b != a:
                    self.tv[b * 7 + n[b]] = i
                    n[b] += 1
                i += 1
        self.branch_every = every
        self.branch_first = first
        self.branch_lead = lead
        self.branch_after_lead = after_lead
        self.at_once = at_once


@cython.final
@cython.cclass
class Layout:
    """The layout's state in C arrays; `place` and the legal placements (`fill`, `codes`)."""

    fv: cython.int[224]  # the value a tile must show at each free side key
    pos: cython.int[224]  # where each free key sits in `keys`
    keys: cython.int[128]  # the open side keys, unordered
    nkeys: cython.int
    in_line: cython.int[28]
    placed: cython.int[28]
    nplaced: cython.int
    total: cython.int
    spin: cython.ulonglong
    spin_next: cython.bint
    out: cython.int[128]  # the legal placements of the last `fill`, sorted
    r: Tables

    def __init__(self, r: Tables):
        i: cython.int
        if not cython.compiled:
            self.fv, self.pos, self.keys = [0] * NK, [0] * NK, [0] * NOPEN
            self.in_line, self.placed, self.out = [0] * 28, [0] * 28, [0] * NOPEN
        for i in range(28):
            self.in_line[i] = 0
        self.r = r
        self.nkeys = 0
        self.nplaced = 0
        self.total = 0
        self.spin = 0
        self.spin_next = r.branch_every or r.branch_first or r.branch_lead

    @cython.cfunc
    @cython.inline
    def _add(self, key: cython.int, v: cython.int) -> cython.void:
        self.fv[key] = v
        self.pos[key] = self.nkeys
        self.keys[self.nkeys] = key
        self.nkeys += 1

    @cython.cfunc
    @cython.inline
    def _take(self, key: cython.int) -> cython.int:
        """Close the free side `key`; its value."""
        i: cython.int = self.pos[key]
        last: cython.int = self.keys[self.nkeys - 1]
        self.keys[i] = last
        self.pos[last] = i
        self.nkeys -= 1
        return self.fv[key]

    @cython.ccall
    def place(self, code: cython.int) -> cython.int:
        """Place the (legal) move `code`; return the new counted sum."""
        ti: cython.int = code >> 10
        key: cython.int = code & 0x3FF
        v: cython.int
        t: cython.int
        n: cython.int
        e: cython.int
        total: cython.int
        r: Tables = self.r
        if key == 0x3FF:
            return self._lead(ti, code)
        v = self._take(key)
        t = key >> 3
        total = self.total
        if r.dbl[t]:
            if (key & 7) >= 3:  # LINE_A
                n = self.in_line[t] - 1
                self.in_line[t] = n
                if not n:
                    total -= r.dv[t]
                    if (self.spin >> t) & 1 and not r.at_once:
                        self._add(t << 3 | 0, v)  # BRANCH_A
                        self._add(t << 3 | 1, v)  # BRANCH_B
        else:
            total -= v
        if r.dbl[ti]:
            self._add(ti << 3 | 4, v)  # LINE_B
            self.in_line[ti] = 1
            total += self._spinner(ti, v) if self.spin_next else r.dv[ti]
        elif r.lo[ti] == v:
            e = r.hi[ti]
            self._add(ti << 3 | 2, e)  # HIGH
            total += e
        else:
            e = r.lo[ti]
            self._add(ti << 3 | 5, e)  # LOW
            total += e
        self.total = total
        self.placed[self.nplaced] = code
        self.nplaced += 1
        return total

    @cython.cfunc
    def _lead(self, ti: cython.int, code: cython.int) -> cython.int:
        r: Tables = self.r
        e: cython.int
        total: cython.int
        if r.dbl[ti]:
            e = r.lo[ti]
            self._add(ti << 3 | 3, e)
            self._add(ti << 3 | 4, e)
            self.in_line[ti] = 2
            total = self._spinner(ti, e) if self.spin_next else r.dv[ti]
        else:
            self._add(ti << 3 | 5, r.lo[ti])
            self._add(ti << 3 | 2, r.hi[ti])
            total = r.pips[ti]
        if r.branch_lead:
            self.spin_next = False
        elif r.branch_after_lead:
            self.spin_next = True
        self.total = total
        self.placed[self.nplaced] = code
        self.nplaced += 1
        return total

    @cython.cfunc
    def _spinner(self, ti: cython.int, p: cython.int) -> cython.int:
        r: Tables = self.r
        self.spin |= cython.cast(cython.ulonglong, 1) << ti
        if r.branch_first:
            self.spin_next = False
        if r.at_once:
            self._add(ti << 3 | 0, p)
            self._add(ti << 3 | 1, p)
        return r.dv[ti]

    @cython.ccall
    def fill(self, hand: cython.ulonglong) -> cython.int:
        """Write the legal placements of `hand` (a bitmask) into `out`, sorted; their number."""
        r: Tables = self.r
        n: cython.int = 0
        j: cython.int
        k: cython.int
        key: cython.int
        v: cython.int
        t: cython.int
        c: cython.int
        for j in range(self.nkeys):
            key = self.keys[j]
            v = self.fv[key]
            for k in range(7):
                t = r.tv[v * 7 + k]
                if (hand >> t) & 1:
                    self.out[n] = t << 10 | key
                    n += 1
        for j in range(1, n):  # insertion sort: a handful of codes
            c = self.out[j]
            k = j - 1
            while k >= 0 and self.out[k] > c:
                self.out[k + 1] = self.out[k]
                k -= 1
            self.out[k + 1] = c
        return n

    def codes(self, hand: cython.ulonglong) -> list:
        """The legal placements of `hand` as the engine's sorted list of move codes."""
        n: cython.int = self.fill(hand)
        return [self.out[i] for i in range(n)]

    def free(self) -> dict:
        """The free sides as the engine's `Layout.free` (key -> value), built on demand."""
        return {self.keys[j]: self.fv[self.keys[j]] for j in range(self.nkeys)}


def replay(r: Tables, hands: list, codes: list) -> cython.longlong:
    """slice_plain.replay's steps and checksum, the legal placements left in the array."""
    lay: Layout = Layout(r)
    check: cython.longlong = 0
    i: cython.Py_ssize_t
    code: cython.int
    n: cython.int
    for i in range(len(codes)):
        code = codes[i]
        if code & 0x3FF == 0x3FF:
            lay = Layout(r)
        else:
            n = lay.fill(hands[i])
            check += n + lay.out[0]
        check += lay.place(code)
    return check


def replay_lists(r: Tables, hands: list, codes: list) -> cython.longlong:
    """`replay`, each step's legal placements built as the engine's list (its API: `legal_codes()`)."""
    lay: Layout = Layout(r)
    check: cython.longlong = 0
    i: cython.Py_ssize_t
    code: cython.int
    legal: list
    for i in range(len(codes)):
        code = codes[i]
        if code & 0x3FF == 0x3FF:
            lay = Layout(r)
        else:
            legal = lay.codes(hands[i])
            check += len(legal) + legal[0]
        check += lay.place(code)
    return check


def trace(r: Tables, hands: list, codes: list) -> list:
    """slice_plain.trace: each step's legal placements and counted sum."""
    lay: Layout = Layout(r)
    out: list = []
    i: cython.Py_ssize_t
    code: cython.int
    for i in range(len(codes)):
        code = codes[i]
        legal: list = []
        if code & 0x3FF == 0x3FF:
            lay = Layout(r)
        else:
            legal = lay.codes(hands[i])
        out.append((legal, lay.place(code)))
    return out


def loop_only(r: Tables, hands: list, codes: list) -> cython.longlong:
    """`replay`'s loop without the slice (a new Layout per round, the same reads): its overhead, to subtract."""
    lay: Layout = Layout(r)
    check: cython.longlong = 0
    i: cython.Py_ssize_t
    code: cython.int
    h: cython.ulonglong
    for i in range(len(codes)):
        code = codes[i]
        if code & 0x3FF == 0x3FF:
            lay = Layout(r)
        else:
            h = hands[i]
            check += h
        check += code + lay.total
    return check
