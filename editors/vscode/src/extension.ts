// skillgrade for VS Code: a thin client of `skillgrade server` (see docs/protocol.md).
import * as path from "path";
import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  type LanguageClientOptions,
  type ServerOptions,
} from "vscode-languageclient/node";
import { renderReport } from "./report";
import { runSelfTest } from "./selfTest";
import {
  initializationOptions,
  resolveServerCommand,
  SECRET_KEY,
  serverEnv,
  statusText,
  type ServerCommand,
} from "./serverCommand";

export const CLIENT_ID = "skillgrade";
export const SECTION = "skillgrade";
/**
 * SKILL.md, and every markdown file: the server reports on those bundled with a skill (references/forms.md,
 * any markdown file under a folder holding a SKILL.md) and answers nothing for the rest. A selector cannot
 * say "inside a skill folder", and patterns (not a language id) also cover VS Code's `skill` id.
 */
export const DOCUMENT_SELECTOR = [
  { scheme: "file", pattern: "**/SKILL.md" },
  { scheme: "file", pattern: "**/*.{md,markdown,mdx}" },
  // task suites (YAML with `skill_id` + `tasks`) and comprehension eval files (JSON with `evals`): the
  // server claims them by content and answers nothing for other YAML/JSON files
  { scheme: "file", pattern: "**/*.{yaml,yml,json,jsonl}" },
];
export const REPORT_SCHEME = "skillgrade-report";
const REQUEST_CANCELLED = -32800;
/** Settings whose change needs a new server process (the rest reach it via didChangeConfiguration). */
const RESTART_SETTINGS = ["interpreter", "serverPath", "logLevel"];

export type CommandKind = "certify" | "judge" | "runTaskSuite" | "comprehension" | "optimize";

/** What the notification says while a command runs ("Judging pdf-tools…"). */
const VERBS: Record<CommandKind, string> = {
  certify: "Certifying",
  judge: "Judging",
  runTaskSuite: "Running the task suite of",
  comprehension: "Running the comprehension evals of",
  optimize: "Optimising the description of",
};

export interface CommandOutcome {
  command: string;
  uri?: string;
  status: "ok" | "error" | "cancelled";
  /** JSON-RPC error code when the server answered with an error (-32800: cancelled) */
  code?: number;
  message?: string;
  result?: unknown;
  /** the server's judgeRun.status when it could not run the judge (e.g. "no_key") */
  judgeStatus?: string;
  /** certify: the server's cost estimate shown before the run */
  estimate?: unknown;
  cancelRequested?: boolean;
  ms?: number;
}

export interface RunOptions {
  /** cancel the request this many ms after sending it (the self-test's stand-in for the Cancel button) */
  cancelAfterMs?: number;
  /** certify: skip the cost confirmation (the self-test; the estimate is still asked for and returned) */
  confirmed?: boolean;
}

interface Estimate {
  status?: string;
  message?: string;
  plan?: { calls?: number; cost_usd?: number | null };
}

/** Certify spends real money: ask the server what the run would cost and let the user decide.
 *  stop: the outcome to return instead of running; estimate: what was shown. */
async function confirmCertify(
  c: LanguageClient,
  uri: vscode.Uri,
  base: { command: string; uri: string },
  opts: RunOptions,
): Promise<{ stop?: CommandOutcome; estimate?: Estimate }> {
  let est: Estimate | null = null;
  try {
    est = (await c.sendRequest(ExecuteCommandRequest.type, {
      command: "skillgrade.estimate",
      arguments: [uri.toString(), "certify"],
    })) as Estimate | null;
  } catch (err) {
    log(`estimate failed (certify runs without a confirmation): ${errorInfo(err).message}`);
    return {};
  }
  if (!est || !est.status) return {}; // a server without estimates
  if (est.status !== "ok") {
    const message = est.message ?? `certify ${est.status}`;
    void vscode.window.showWarningMessage(`skillgrade certify: ${message}`);
    return { stop: { ...base, status: "error", message, judgeStatus: est.status, estimate: est } };
  }
  if (opts.confirmed) return { estimate: est };
  const choice = await vscode.window.showWarningMessage(
    `skillgrade: ${est.message}`,
    { modal: true, detail: "Certify runs the LLM judge, the Monte Carlo simulations and the Elo comparisons. Finished parts are cached: a cancelled run resumes." },
    "Certify",
  );
  if (choice !== "Certify") {
    return { stop: { ...base, status: "cancelled", message: "not confirmed", estimate: est } };
  }
  return { estimate: est };
}

let extensionContext: vscode.ExtensionContext;
let output: vscode.OutputChannel;
let client: LanguageClient | undefined;
let clientReady: Promise<LanguageClient | undefined> = Promise.resolve(undefined);
let lifecycle: Promise<unknown> = Promise.resolve();
let currentServer: ServerCommand | undefined;
let statusItem: vscode.StatusBarItem;
let statusTimer: ReturnType<typeof setTimeout> | undefined;
const reports = new Map<string, string>();
const reportChanged = new vscode.EventEmitter<vscode.Uri>();

function log(message: string): void {
  output?.appendLine(`[skillgrade ${new Date().toISOString()}] ${message}`);
}

function isSkillDocument(doc: vscode.TextDocument | undefined): doc is vscode.TextDocument {
  return !!doc && doc.uri.scheme === "file" && path.basename(doc.uri.fsPath).toLowerCase() === "skill.md";
}

function activeSkillUri(): vscode.Uri | undefined {
  const doc = vscode.window.activeTextEditor?.document;
  return isSkillDocument(doc) ? doc.uri : undefined;
}

function toUri(arg: unknown): vscode.Uri | undefined {
  if (arg instanceof vscode.Uri) return arg;
  if (typeof arg === "string" && arg) return vscode.Uri.parse(arg);
  return activeSkillUri();
}

function skillLabel(uri: vscode.Uri): string {
  return path.basename(path.dirname(uri.fsPath)) || uri.fsPath;
}

/** The Python extension's interpreter, when that extension is installed (soft dependency). */
async function pythonExtensionInterpreter(): Promise<string[] | undefined> {
  const ext = vscode.extensions.getExtension("ms-python.python");
  if (!ext) return undefined;
  try {
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const api: any = ext.isActive ? ext.exports : await ext.activate();
    const resource = vscode.workspace.workspaceFolders?.[0]?.uri;
    const envPath = api?.environments?.getActiveEnvironmentPath?.(resource);
    if (envPath) {
      const env = await api.environments.resolveEnvironment(envPath);
      const exe = env?.executable?.uri?.fsPath;
      if (exe) return [exe];
    }
    const details = api?.settings?.getExecutionDetails?.(resource);
    if (Array.isArray(details?.execCommand) && details.execCommand.length) return details.execCommand;
  } catch (err) {
    log(`Python extension interpreter lookup failed: ${err}`);
  }
  return undefined;
}

function cleanSection(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) {
    if (v === null || v === undefined || v === "") continue;
    out[k] = v;
  }
  return out;
}

export async function buildClient(context: vscode.ExtensionContext): Promise<LanguageClient> {
  const cfg = vscode.workspace.getConfiguration(SECTION);
  const cmd = resolveServerCommand(
    context.extensionPath,
    { interpreter: cfg.get<string | null>("interpreter"), serverPath: cfg.get<string | null>("serverPath") },
    await pythonExtensionInterpreter(),
  );
  currentServer = cmd;
  const apiKey = await context.secrets.get(SECRET_KEY);
  const env = serverEnv({
    baseEnv: process.env,
    apiKey,
    logLevel: cfg.get<string>("logLevel"),
    importStrategy: cmd.importStrategy,
  });
  // No `transport`: with TransportKind.stdio vscode-languageclient appends `--stdio`.
  const serverOptions: ServerOptions = { command: cmd.command, args: cmd.args, options: { env } };
  const clientOptions: LanguageClientOptions = {
    documentSelector: DOCUMENT_SELECTOR,
    synchronize: { configurationSection: SECTION },
    initializationOptions: initializationOptions((k) => cfg.get(k)),
    outputChannel: output,
    diagnosticCollectionName: CLIENT_ID,
    middleware: {
      workspace: {
        // unset settings (null / "") are left out so the server keeps its defaults
        configuration: async (params, token, next) => {
          const result = await next(params, token);
          if (!Array.isArray(result)) return result;
          return result.map((r, i) => (params.items[i]?.section === SECTION ? cleanSection(r) : r));
        },
      },
    },
  };
  log(`server (${cmd.source}): ${[cmd.command, ...cmd.args].join(" ")}${apiKey ? " [ANTHROPIC_API_KEY set]" : ""}`);
  return new LanguageClient(CLIENT_ID, "skillgrade", serverOptions, clientOptions);
}

function startClient(): Promise<LanguageClient | undefined> {
  const run = lifecycle.then(async () => {
    const c = await buildClient(extensionContext);
    client = c;
    try {
      await c.start();
      return c;
    } catch (err) {
      const msg = err instanceof Error ? err.message : String(err);
      log(`server failed to start: ${msg}`);
      void vscode.window.showErrorMessage(
        `skillgrade: the language server failed to start (${msg}). Check skillgrade.interpreter / skillgrade.serverPath and the 'skillgrade' output.`,
      );
      return undefined;
    }
  });
  lifecycle = run.catch(() => undefined);
  clientReady = run.catch(() => undefined);
  return clientReady;
}

function stopClient(): Promise<void> {
  const run = lifecycle.then(async () => {
    const c = client;
    client = undefined;
    if (!c) return;
    try {
      await c.dispose(5000);
    } catch (err) {
      log(`stopping the server: ${err}`);
    }
  });
  lifecycle = run.catch(() => undefined);
  clientReady = Promise.resolve(undefined);
  return run;
}

export async function restartClient(): Promise<LanguageClient | undefined> {
  await stopClient();
  return startClient();
}

/** The client once it is running (or undefined when the server could not start). */
export function readyClient(): Promise<LanguageClient | undefined> {
  return clientReady;
}

export function serverCommandInUse(): ServerCommand | undefined {
  return currentServer;
}

function errorInfo(err: unknown): { code?: number; message: string } {
  const e = err as { code?: unknown; message?: unknown };
  return {
    code: typeof e?.code === "number" ? e.code : undefined,
    message: typeof e?.message === "string" ? e.message : String(err),
  };
}

/** Runs a long server command (`skillgrade.certify`, `.judge`, `.runTaskSuite`, `.comprehension`,
 * `.optimize`) on a SKILL.md with a cancellable Notification progress. */
export async function runLongCommand(kind: CommandKind, uriArg?: unknown, opts: RunOptions = {}): Promise<CommandOutcome> {
  const command = `skillgrade.${kind}`;
  const uri = toUri(uriArg);
  if (!uri) {
    void vscode.window.showErrorMessage("skillgrade: open a SKILL.md file first.");
    return { command, status: "error", message: "no SKILL.md is active" };
  }
  const c = await readyClient();
  if (!c) {
    const message = "the skillgrade language server is not running";
    void vscode.window.showErrorMessage(`skillgrade: ${message}.`);
    return { command, uri: uri.toString(), status: "error", message };
  }
  let estimate: Estimate | undefined;
  if (kind === "certify") {
    const confirmation = await confirmCertify(c, uri, { command, uri: uri.toString() }, opts);
    if (confirmation.stop) return confirmation.stop;
    estimate = confirmation.estimate;
  }
  const verb = VERBS[kind];
  return vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `skillgrade: ${verb} ${skillLabel(uri)}…`, cancellable: true },
    async (_progress, progressToken) => {
      const cts = new vscode.CancellationTokenSource();
      const sub = progressToken.onCancellationRequested(() => cts.cancel());
      const timer = opts.cancelAfterMs !== undefined ? setTimeout(() => cts.cancel(), opts.cancelAfterMs) : undefined;
      const t0 = Date.now();
      const base = { command, uri: uri.toString() };
      try {
        // the token makes the client send $/cancelRequest when the user presses Cancel
        const result = await c.sendRequest(
          ExecuteCommandRequest.type,
          { command, arguments: [uri.toString()] },
          cts.token,
        );
        type Run = { status?: string; message?: string };
        const r = result as {
          judgeRun?: Run; certifyRun?: Run; evaluateRun?: Run; comprehensionRun?: Run; optimizeRun?: Run;
        } | null;
        const run = r?.judgeRun ?? r?.certifyRun ?? r?.evaluateRun ?? r?.comprehensionRun ?? r?.optimizeRun;
        if (run && run.status !== "ok") {
          // e.g. no API key: the server's one sentence; the static result stands, no judge score
          const message = run.message ?? `judge ${run.status}`;
          void vscode.window.showWarningMessage(`skillgrade ${kind}: ${message}`);
          scheduleStatusUpdate(0);
          return {
            ...base, status: "error", message, judgeStatus: run.status,
            cancelRequested: cts.token.isCancellationRequested, ms: Date.now() - t0,
          };
        }
        const status = kind === "certify" || kind === "judge" ? statusText(result) : undefined;
        void vscode.window.showInformationMessage(
          status ? `skillgrade ${kind}: ${status.tooltip.replace(/^skillgrade: /, "").replace(/ Click for the report\.$/, "")}`
            : `skillgrade ${kind}: ${run?.message ?? "done."}`,
        );
        scheduleStatusUpdate(0);
        return {
          ...base, status: "ok", result, estimate, cancelRequested: cts.token.isCancellationRequested, ms: Date.now() - t0,
        };
      } catch (err) {
        const { code, message } = errorInfo(err);
        const cancelRequested = cts.token.isCancellationRequested;
        if (code === REQUEST_CANCELLED || (cancelRequested && code === undefined)) {
          void vscode.window.showInformationMessage(`skillgrade: ${kind} cancelled.`);
          return { ...base, status: "cancelled", code, message, cancelRequested, ms: Date.now() - t0 };
        }
        // the server's own words, never a made-up score
        void vscode.window.showErrorMessage(`skillgrade ${kind}: ${message}`);
        return { ...base, status: "error", code, message, cancelRequested, ms: Date.now() - t0 };
      } finally {
        if (timer) clearTimeout(timer);
        sub.dispose();
        cts.dispose();
      }
    },
  );
}

/** `workspace/executeCommand` without UI; used by the status bar and the report. */
export async function executeServerCommand(command: string, uri: vscode.Uri): Promise<unknown> {
  const c = await readyClient();
  if (!c) throw new Error("the skillgrade language server is not running");
  return c.sendRequest(ExecuteCommandRequest.type, { command, arguments: [uri.toString()] });
}

export function statusBarText(): string {
  return statusItem?.text ?? "";
}

export async function updateStatus(): Promise<void> {
  const uri = activeSkillUri();
  if (!uri) {
    statusItem.hide();
    return;
  }
  try {
    const s = statusText(await executeServerCommand("skillgrade.score", uri));
    if (activeSkillUri()?.toString() !== uri.toString()) return;
    statusItem.text = s ? s.text : "$(checklist) skillgrade";
    statusItem.tooltip = s ? s.tooltip : "skillgrade: no score. Click for the report.";
  } catch (err) {
    statusItem.text = "$(warning) skillgrade";
    statusItem.tooltip = `skillgrade: ${errorInfo(err).message}`;
  }
  statusItem.show();
}

function scheduleStatusUpdate(delayMs = 400): void {
  if (statusTimer) clearTimeout(statusTimer);
  statusTimer = setTimeout(() => void updateStatus(), delayMs);
}

/** What "Show report" opened: the server's HTML report in a webview, or (older servers) a Markdown document. */
export type ShownReport =
  | { kind: "html"; title: string; html: string; panel: vscode.WebviewPanel }
  | { kind: "markdown"; uri: vscode.Uri };

let reportPanel: vscode.WebviewPanel | undefined;

/** The report webview (one, reused): the server's self-contained page, scripts disabled, no local resources. */
function showHtmlReport(title: string, html: string): vscode.WebviewPanel {
  if (!reportPanel) {
    reportPanel = vscode.window.createWebviewPanel("skillgrade.report", title, vscode.ViewColumn.Beside, {
      enableScripts: false,
      localResourceRoots: [],
    });
    reportPanel.onDidDispose(() => (reportPanel = undefined));
  } else {
    reportPanel.reveal(vscode.ViewColumn.Beside);
  }
  reportPanel.title = title;
  reportPanel.webview.html = html;
  return reportPanel;
}

/** Opens the report of a skill: the HTML report (`skillgrade.reportHtml`) in a webview; a server without it
 * gets the Markdown report as a read-only document. */
export async function showReport(uriArg?: unknown): Promise<ShownReport | undefined> {
  const uri = toUri(uriArg);
  if (!uri) {
    void vscode.window.showErrorMessage("skillgrade: open a SKILL.md file first.");
    return undefined;
  }
  try {
    const page = (await executeServerCommand("skillgrade.reportHtml", uri)) as { html?: unknown } | null;
    if (page && typeof page.html === "string") {
      const title = `skillgrade: ${skillLabel(uri)}`;
      return { kind: "html", title, html: page.html, panel: showHtmlReport(title, page.html) };
    }
  } catch (err) {
    log(`skillgrade.reportHtml failed (${errorInfo(err).message}); showing the Markdown report`);
  }
  let report: unknown;
  try {
    report = await executeServerCommand("skillgrade.report", uri);
  } catch (err) {
    log(`skillgrade.report failed (${errorInfo(err).message}); falling back to skillgrade.score`);
  }
  if (report === undefined || report === null) {
    try {
      report = await executeServerCommand("skillgrade.score", uri);
    } catch (err) {
      void vscode.window.showErrorMessage(`skillgrade: ${errorInfo(err).message}`);
      return undefined;
    }
  }
  const reportUri = vscode.Uri.from({
    scheme: REPORT_SCHEME,
    path: `/${skillLabel(uri)}/skillgrade-report.md`,
    query: uri.toString(),
  });
  reports.set(reportUri.toString(), renderReport(report, skillLabel(uri)));
  reportChanged.fire(reportUri);
  const doc = await vscode.workspace.openTextDocument(reportUri);
  await vscode.window.showTextDocument(doc, { preview: true, viewColumn: vscode.ViewColumn.Beside });
  return { kind: "markdown", uri: reportUri };
}

async function setApiKey(): Promise<void> {
  const value = await vscode.window.showInputBox({
    title: "skillgrade: Anthropic API key",
    prompt: "Stored in VS Code's secret storage and passed to the server as ANTHROPIC_API_KEY. Leave empty to remove it.",
    password: true,
    ignoreFocusOut: true,
  });
  if (value === undefined) return;
  if (value.trim()) {
    await extensionContext.secrets.store(SECRET_KEY, value.trim());
    void vscode.window.showInformationMessage("skillgrade: API key saved; restarting the server.");
  } else {
    await extensionContext.secrets.delete(SECRET_KEY);
    void vscode.window.showInformationMessage("skillgrade: API key removed; restarting the server.");
  }
  // secrets.onDidChange restarts the server
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  extensionContext = context;
  output = vscode.window.createOutputChannel("skillgrade");
  statusItem = vscode.window.createStatusBarItem("skillgrade.status", vscode.StatusBarAlignment.Right, 100);
  statusItem.name = "skillgrade";
  statusItem.command = "skillgrade.showReport";
  context.subscriptions.push(output, statusItem, reportChanged);

  context.subscriptions.push(
    vscode.workspace.registerTextDocumentContentProvider(REPORT_SCHEME, {
      onDidChange: reportChanged.event,
      provideTextDocumentContent: (uri) => reports.get(uri.toString()) ?? "No report yet.",
    }),
    // palette command ids differ from the server's (skillgrade.certify/judge/score/report), which
    // vscode-languageclient registers itself
    vscode.commands.registerCommand("skillgrade.certifyActiveFile", (uri?: unknown, opts?: RunOptions) =>
      runLongCommand("certify", uri, opts),
    ),
    vscode.commands.registerCommand("skillgrade.judgeActiveFile", (uri?: unknown, opts?: RunOptions) =>
      runLongCommand("judge", uri, opts),
    ),
    vscode.commands.registerCommand("skillgrade.runTaskSuiteActiveFile", (uri?: unknown, opts?: RunOptions) =>
      runLongCommand("runTaskSuite", uri, opts),
    ),
    vscode.commands.registerCommand("skillgrade.comprehensionActiveFile", (uri?: unknown, opts?: RunOptions) =>
      runLongCommand("comprehension", uri, opts),
    ),
    vscode.commands.registerCommand("skillgrade.optimizeActiveFile", (uri?: unknown, opts?: RunOptions) =>
      runLongCommand("optimize", uri, opts),
    ),
    vscode.commands.registerCommand("skillgrade.showReport", (uri?: unknown) => showReport(uri)),
    vscode.commands.registerCommand("skillgrade.restart", async () => {
      const c = await restartClient();
      scheduleStatusUpdate(0);
      return !!c;
    }),
    vscode.commands.registerCommand("skillgrade.setApiKey", setApiKey),
    context.secrets.onDidChange((e) => {
      if (e.key === SECRET_KEY) void restartClient().then(() => scheduleStatusUpdate(0));
    }),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (RESTART_SETTINGS.some((k) => e.affectsConfiguration(`${SECTION}.${k}`))) {
        log("server settings changed; restarting");
        void restartClient().then(() => scheduleStatusUpdate(0));
      }
    }),
    vscode.window.onDidChangeActiveTextEditor(() => scheduleStatusUpdate(0)),
    vscode.languages.onDidChangeDiagnostics((e) => {
      const active = activeSkillUri()?.toString();
      if (active && e.uris.some((u) => u.toString() === active)) scheduleStatusUpdate();
    }),
    { dispose: () => void stopClient() },
  );

  void startClient().then(() => scheduleStatusUpdate(0));

  const e2eOut = process.env.SKILLGRADE_E2E_OUT;
  if (e2eOut) {
    void runSelfTest(e2eOut, {
      readyClient,
      runLongCommand,
      showReport,
      updateStatus,
      statusBarText,
      serverCommandInUse,
      log,
      // the same store the "Set API key" input box writes; its onDidChange restarts the server
      storeApiKey: (key: string) => Promise.resolve(context.secrets.store(SECRET_KEY, key)),
    });
  }
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
