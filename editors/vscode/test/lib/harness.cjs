// Loads src/extension.ts against a mocked `vscode` module and a fake LanguageClient.
// The extension is bundled with esbuild exactly like the real build, except that
// vscode-languageclient stays external so the fake can stand in for it.
"use strict";
const fs = require("node:fs");
const os = require("node:os");
const path = require("node:path");
const Module = require("node:module");
const esbuild = require("esbuild");

const EXT_DIR = path.resolve(__dirname, "..", "..");
const bundleDir = fs.mkdtempSync(path.join(os.tmpdir(), "skillgrade-ext-test-"));
const bundlePath = path.join(bundleDir, "extension.js");
esbuild.buildSync({
  entryPoints: [path.join(EXT_DIR, "src", "extension.ts")],
  bundle: true,
  outfile: bundlePath,
  external: ["vscode", "vscode-languageclient", "vscode-languageclient/node"],
  format: "cjs",
  platform: "node",
  target: "node18",
  logLevel: "silent",
});
process.on("exit", () => fs.rmSync(bundleDir, { recursive: true, force: true }));

let current; // the state of the current fake world
const disposable = () => ({ dispose() {} });

class Uri {
  constructor(scheme, p, query = "") {
    this.scheme = scheme;
    this.path = p;
    this.query = query;
    this.fsPath = p;
  }
  static file(p) {
    return new Uri("file", p);
  }
  static parse(s) {
    const m = /^([a-z][\w+.-]*):(?:\/\/)?([^?]*)(?:\?(.*))?$/i.exec(s);
    return m ? new Uri(m[1], decodeURIComponent(m[2]), m[3] ?? "") : new Uri("file", s);
  }
  static from(o) {
    return new Uri(o.scheme, o.path ?? "", o.query ?? "");
  }
  toString() {
    return `${this.scheme}://${this.path}${this.query ? `?${this.query}` : ""}`;
  }
}

class EventEmitter {
  constructor() {
    this.listeners = [];
    this.event = (l) => {
      this.listeners.push(l);
      return disposable();
    };
  }
  fire(v) {
    for (const l of this.listeners) l(v);
  }
  dispose() {}
}

class CancellationTokenSource {
  constructor() {
    const listeners = [];
    this.token = {
      isCancellationRequested: false,
      onCancellationRequested: (l) => {
        listeners.push(l);
        return disposable();
      },
    };
    this._listeners = listeners;
  }
  cancel() {
    if (this.token.isCancellationRequested) return;
    this.token.isCancellationRequested = true;
    for (const l of this._listeners) l();
  }
  dispose() {}
}

function makeVscode() {
  const on = (name) => (l) => {
    (current.listeners[name] ??= []).push(l);
    return disposable();
  };
  return {
    version: "1.82.0",
    Uri,
    EventEmitter,
    CancellationTokenSource,
    StatusBarAlignment: { Left: 1, Right: 2 },
    ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
    ViewColumn: { Active: -1, Beside: -2, One: 1 },
    window: {
      get activeTextEditor() {
        return current.activeTextEditor;
      },
      createOutputChannel: (name) => ({
        name,
        appendLine: (l) => current.output.push(l),
        append: (l) => current.output.push(l),
        show() {},
        dispose() {},
      }),
      createStatusBarItem: (id, alignment, priority) => {
        current.statusItem = { id, alignment, priority, text: "", visible: false, show() { this.visible = true; }, hide() { this.visible = false; }, dispose() {} };
        return current.statusItem;
      },
      showErrorMessage: async (m) => void current.messages.push(["error", m]),
      showInformationMessage: async (m) => void current.messages.push(["info", m]),
      showWarningMessage: async (m, ...rest) => {
        current.messages.push(["warning", m]);
        const options = rest[0] && typeof rest[0] === "object" ? rest[0] : undefined;
        if (options?.modal) {
          current.modals.push({ message: m, options, items: rest.slice(1) });
          return current.warningAnswer;
        }
        return undefined;
      },
      showInputBox: async (o) => {
        current.inputBoxes.push(o);
        return current.inputBoxAnswer;
      },
      showTextDocument: async (doc) => ({ document: doc }),
      createWebviewPanel: (viewType, title, column, options) => {
        const panel = {
          viewType, title, column, options, revealed: 0, disposed: false,
          webview: { html: "", options: options ?? {}, cspSource: "vscode-webview:" },
          reveal() { this.revealed += 1; },
          onDidDispose: (fn) => { panel.disposeListener = fn; return disposable(); },
          dispose() { this.disposed = true; panel.disposeListener?.(); },
        };
        current.webviews.push(panel);
        return panel;
      },
      withProgress: async (options, task) => {
        const cts = new CancellationTokenSource();
        current.progress.push({ options, cts });
        return task({ report() {} }, cts.token);
      },
      onDidChangeActiveTextEditor: on("activeEditor"),
    },
    workspace: {
      workspaceFolders: undefined,
      getConfiguration: (section) => ({
        get: (key) => current.config[`${section}.${key}`],
      }),
      registerTextDocumentContentProvider: (scheme, provider) => {
        current.contentProviders[scheme] = provider;
        return disposable();
      },
      openTextDocument: async (uri) => ({ uri, languageId: "markdown", getText: () => current.contentProviders[uri.scheme].provideTextDocumentContent(uri) }),
      onDidChangeConfiguration: on("configuration"),
    },
    commands: {
      registerCommand: (id, fn) => {
        if (current.commands.has(id)) throw new Error(`command '${id}' already exists`);
        current.commands.set(id, fn);
        return { dispose: () => current.commands.delete(id) };
      },
      executeCommand: async (id, ...args) => current.commands.get(id)?.(...args),
    },
    languages: {
      onDidChangeDiagnostics: on("diagnostics"),
      getDiagnostics: () => [],
    },
    extensions: {
      getExtension: (id) => current.extensions[id],
    },
  };
}

function makeLanguageClientModule() {
  class LanguageClient {
    constructor(id, name, serverOptions, clientOptions) {
      Object.assign(this, { id, name, serverOptions, clientOptions, started: false, disposed: false, requests: [] });
      current.clients.push(this);
    }
    async start() {
      this.started = true;
    }
    async dispose() {
      this.disposed = true;
    }
    async stop() {
      this.disposed = true;
    }
    async sendRequest(type, params, token) {
      this.requests.push({ method: type.method, params, token });
      return current.onRequest(type.method, params, token);
    }
  }
  return {
    LanguageClient,
    ExecuteCommandRequest: { type: { method: "workspace/executeCommand" } },
    CodeActionRequest: { type: { method: "textDocument/codeAction" } },
  };
}

const vscodeMock = makeVscode();
const lcMock = makeLanguageClientModule();
const origLoad = Module._load;
Module._load = function (request, parent, isMain) {
  if (request === "vscode") return vscodeMock;
  if (request === "vscode-languageclient/node" || request === "vscode-languageclient") return lcMock;
  return origLoad.call(this, request, parent, isMain);
};

/**
 * Fresh extension module + fresh fake world. `opts.config` uses full keys ("skillgrade.interpreter").
 */
async function activate(opts = {}) {
  const secrets = new Map(Object.entries(opts.secrets ?? {}));
  const secretEmitter = new EventEmitter();
  current = {
    config: {
      "skillgrade.interpreter": "",
      "skillgrade.serverPath": "",
      "skillgrade.judgeModel": "claude-sonnet-4-5",
      "skillgrade.simulationModel": "claude-haiku-4-5",
      "skillgrade.budgetUsd": 1,
      "skillgrade.debounceMs": 150,
      "skillgrade.docsBaseUrl": null,
      "skillgrade.logLevel": "WARNING",
      ...(opts.config ?? {}),
    },
    commands: new Map(),
    clients: [],
    messages: [],
    modals: [],
    warningAnswer: undefined,
    output: [],
    progress: [],
    inputBoxes: [],
    inputBoxAnswer: undefined,
    listeners: {},
    contentProviders: {},
    webviews: [],
    extensions: opts.extensions ?? {},
    activeTextEditor: opts.activeFile ? { document: { uri: Uri.file(opts.activeFile) } } : undefined,
    onRequest: opts.onRequest ?? (async () => null),
    statusItem: undefined,
  };
  delete require.cache[bundlePath];
  const ext = require(bundlePath);
  const context = {
    extensionPath: opts.extensionPath ?? EXT_DIR,
    subscriptions: [],
    secrets: {
      get: async (k) => secrets.get(k),
      store: async (k, v) => {
        secrets.set(k, v);
        secretEmitter.fire({ key: k });
      },
      delete: async (k) => {
        secrets.delete(k);
        secretEmitter.fire({ key: k });
      },
      onDidChange: secretEmitter.event,
    },
  };
  await ext.activate(context);
  await ext.readyClient();
  return { ext, context, world: current, secrets };
}

const tick = (ms = 20) => new Promise((r) => setTimeout(r, ms));

module.exports = { activate, tick, EXT_DIR, Uri };
