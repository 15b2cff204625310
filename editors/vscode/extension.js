// Starts `rulelang lsp` for .rules files; highlighting comes from syntaxes/.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("rulelang").get("server.command");
  client = new LanguageClient(
    "rulelang",
    "rulelang",
    { command, args },
    { documentSelector: [{ language: "rulelang" }] }
  );
  client.start();
  context.subscriptions.push({ dispose: () => client && client.stop() });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
