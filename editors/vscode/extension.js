// The rulelang extension: claims a `.rules` file whose first statement is `ruleset` (detect.js),
// and starts `rulelang lsp` once such a file is open; highlighting comes from syntaxes/.
//
// package.json's `firstLine` claims a file that starts with `ruleset`; one that starts with
// comments opens as plain text (`.rules` is not claimed by extension, so that udev, polkit and
// Snort rules stay what they are) and is claimed here once its first statement is read.
"use strict";
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");
const { firstStatementIsRuleset } = require("./detect");

const LANGUAGE = "rulelang";
let client;

function claim(document) {
  if (document.languageId === "plaintext" && document.uri.path.endsWith(".rules")
      && firstStatementIsRuleset(document.getText())) {
    vscode.languages.setTextDocumentLanguage(document, LANGUAGE);
  }
}

function startServer(context) {
  if (client) return;
  const [command, ...args] = vscode.workspace.getConfiguration("rulelang").get("server.command");
  client = new LanguageClient(
    "rulelang",
    "rulelang",
    { command, args },
    { documentSelector: [{ language: LANGUAGE }] }
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function opened(context, document) {
  claim(document);
  if (document.languageId === LANGUAGE) startServer(context);
}

function activate(context) {
  context.subscriptions.push(vscode.workspace.onDidOpenTextDocument((d) => opened(context, d)));
  vscode.workspace.textDocuments.forEach((d) => opened(context, d));
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
