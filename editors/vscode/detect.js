// Which `.rules` files are rulesets: those whose first statement is `ruleset`. Comments and blank
// lines may come first; udev, polkit and Snort files, which also end in `.rules`, start otherwise.
// No dependency on VS Code, so that it can be tested with node alone.
"use strict";

// Like the language's own lexer: `#` starts a comment, which runs to the end of the line.
const IGNORED = /^\s*(#.*)?$/;
const RULESET = /^\s*ruleset\b/;
const LOOK_AT = 200; // lines: a ruleset's header comment is shorter than this

function firstStatementIsRuleset(text) {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/, LOOK_AT);
  const first = lines.find((line) => !IGNORED.test(line));
  return first !== undefined && RULESET.test(first);
}

module.exports = { firstStatementIsRuleset };
