// Runs editors/vscode/extension.js with stand-ins for the `vscode` module and the language client,
// opens the files named on the command line as plain text (as VS Code does for a `.rules` file that
// no language claims by its name) and prints, as JSON, which ones the extension claimed and how many
// language servers it started.
"use strict";
const fs = require("fs");
const path = require("path");
const Module = require("module");

const claimed = [];
let servers = 0;
const openListeners = [];
const documents = process.argv.slice(3).map((file) => ({
  uri: {path: path.resolve(file)}, languageId: "plaintext", getText: () => fs.readFileSync(file, "utf8"),
}));

const vscode = {
  workspace: {
    textDocuments: documents,
    onDidOpenTextDocument: (listener) => { openListeners.push(listener); return {dispose() {}}; },
    getConfiguration: () => ({get: () => ["rulelang", "lsp"]}),
  },
  languages: {
    setTextDocumentLanguage: (document, language) => {
      claimed.push(path.basename(document.uri.path));
      const reopened = {...document, languageId: language};  // VS Code closes and reopens it
      openListeners.forEach((listener) => listener(reopened));
      return Promise.resolve(reopened);
    },
  },
};
class LanguageClient {
  start() { servers += 1; return Promise.resolve(); }
  stop() { return Promise.resolve(); }
}

const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === "vscode") return vscode;
  if (request === "vscode-languageclient/node") return {LanguageClient};
  return load.call(this, request, ...rest);
};
const extension = require(path.resolve(process.argv[2]));
const context = {subscriptions: []};
extension.activate(context);
process.stdout.write(JSON.stringify({claimed, servers}) + "\n");
