// Write the notices of the npm packages bundled into playground.js (their names, versions and licences).
const fs = require("fs");
const path = require("path");
const meta = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const dirs = new Set();
for (const input of Object.keys(meta.inputs)) {
  const m = input.match(/^node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (m) dirs.add(m[1]);
}
const texts = new Map();
const lines = ["Third-party software bundled in playground.js", ""];
for (const name of [...dirs].sort()) {
  const dir = path.join("node_modules", name);
  const pkg = JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8"));
  lines.push(`${pkg.name} ${pkg.version} (${pkg.license})`);
  const file = fs.readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
  if (file) {
    const text = fs.readFileSync(path.join(dir, file), "utf8").trim();
    texts.set(text, [...(texts.get(text) || []), pkg.name]);
  }
}
for (const [text, names] of texts) lines.push("", `--- ${names.join(", ")} ---`, "", text);
process.stdout.write(lines.join("\n") + "\n");
