/** The console's style sheet, served at /approve/console.css. Light by default, dark where the system asks. */
export const consoleStyle = String.raw`
:root {
  color-scheme: light dark;
  --bg: #f3f4f6;
  --surface: #ffffff;
  --text: #15181d;
  --muted: #58616c;
  --border: #d7dbe1;
  --waiting: #b45309;
  --waiting-tint: #fff8eb;
  --ok: #15803d;
  --ok-tint: #ecfdf3;
  --danger: #b42318;
  --danger-tint: #fef3f2;
  --focus: #2563eb;
  /* Filled buttons keep white text at 4.5:1 or better in both schemes. */
  --ok-solid: #15803d;
  --danger-solid: #b42318;
  --radius: 12px;
}
@media (prefers-color-scheme: dark) {
  :root {
    --bg: #0f1216;
    --surface: #181c22;
    --text: #e8eaed;
    --muted: #9ba4ae;
    --border: #2c333c;
    --waiting: #f59e0b;
    --waiting-tint: #241c0e;
    --ok: #1f9d55;
    --ok-tint: #0f2419;
    --danger: #f26b61;
    --danger-tint: #2a1614;
    --focus: #60a5fa;
  }
}

* { box-sizing: border-box; }
[hidden] { display: none !important; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0;
  background: var(--bg);
  color: var(--text);
  font: 16px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
h1, h2, h3, p { margin: 0; }
code { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9em; background: var(--bg); border: 1px solid var(--border); border-radius: 4px; padding: 0 4px; }

/* ---- header */
.top {
  display: flex; flex-wrap: wrap; gap: 12px; align-items: center; justify-content: space-between;
  padding: 14px max(20px, calc((100% - 960px) / 2));
  background: var(--surface);
  border-bottom: 1px solid var(--border);
}
.top h1 { font-size: 1.3rem; letter-spacing: -0.01em; }
.sub { color: var(--muted); font-size: 0.9rem; }
.top-actions { display: flex; align-items: center; gap: 12px; }
.live {
  display: inline-flex; align-items: center; gap: 8px;
  font-size: 0.9rem; font-weight: 600; color: var(--ok);
  padding: 4px 12px; border-radius: 999px; background: var(--ok-tint);
}
.live::before { content: ""; width: 9px; height: 9px; border-radius: 50%; background: currentColor; }
.live[data-state="offline"] { color: var(--danger); background: var(--danger-tint); }
.live[data-state="connecting"] { color: var(--muted); background: var(--bg); }

/* ---- sections */
main { max-width: 1000px; margin: 0 auto; padding: 8px 20px 96px; }
.section { margin-top: 28px; }
.section-head { display: flex; align-items: baseline; gap: 12px; }
.section-head h2 { font-size: 1.15rem; }
.count { font-size: 0.85rem; font-weight: 600; color: var(--muted); }
#requests .count:not(:empty) { color: var(--waiting); }
.hint { color: var(--muted); font-size: 0.95rem; margin: 4px 0 12px; max-width: 65ch; }
.empty {
  border: 1px dashed var(--border); border-radius: var(--radius);
  padding: 22px 20px; color: var(--muted); text-align: center;
}
.cards { list-style: none; margin: 0; padding: 0; display: grid; gap: 12px; }

.card {
  display: grid; grid-template-columns: minmax(0, 1fr) auto auto; align-items: center; gap: 12px 20px;
  background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius);
  padding: 16px 18px;
}
.app-name { font-size: 1.15rem; font-weight: 650; overflow-wrap: anywhere; unicode-bidi: isolate; }
.control {
  display: inline-block; margin: 0 3px; padding: 0 4px; border: 1px solid var(--danger); border-radius: 4px;
  color: var(--danger); font: 600 0.7em/1.5 ui-monospace, monospace; vertical-align: middle;
}
.meta { color: var(--muted); font-size: 0.92rem; margin-top: 2px; }
.meta time, .countdown { font-variant-numeric: tabular-nums; }

.request { border-left: 5px solid var(--waiting); background: linear-gradient(90deg, var(--waiting-tint), var(--surface) 55%); }
.expiry { min-width: 150px; }
.countdown { font-size: 0.92rem; font-weight: 600; color: var(--waiting); }
.bar { height: 6px; margin-top: 6px; border-radius: 3px; background: var(--border); overflow: hidden; }
.fill { height: 100%; width: 100%; background: var(--waiting); transition: width 1s linear; }
.urgent .countdown { color: var(--danger); }
.urgent .fill { background: var(--danger); }

.app { grid-template-columns: minmax(0, 1fr) auto; }
.confirm {
  grid-column: 1 / -1;
  display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 10px 16px;
  background: var(--danger-tint); border-radius: 8px; padding: 12px 14px;
}
.confirm p { font-weight: 500; flex: 1 1 300px; }
.confirm .actions { flex: none; }

/* ---- buttons */
.actions { display: flex; gap: 10px; }
button {
  font: inherit; font-weight: 600; min-height: 44px; padding: 0 20px; border-radius: 8px;
  border: 1px solid var(--border); background: var(--surface); color: var(--text); cursor: pointer;
}
button:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible, a:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
button:disabled, button[aria-disabled="true"] { opacity: 0.55; cursor: progress; }
.primary { background: var(--ok-solid); border-color: var(--ok-solid); color: #fff; }
.primary:hover:not(:disabled):not([aria-disabled="true"]) { filter: brightness(1.08); }
.danger { color: var(--danger); border-color: var(--danger); background: transparent; }
.danger:hover:not(:disabled):not([aria-disabled="true"]) { background: var(--danger-tint); }
.danger-solid { background: var(--danger-solid); border-color: var(--danger-solid); color: #fff; }
.quiet { background: transparent; }
.quiet:hover:not(:disabled):not([aria-disabled="true"]) { background: var(--bg); }
.top .quiet { min-height: 36px; padding: 0 14px; font-weight: 500; }

a.button {
  display: inline-flex; align-items: center; justify-content: center;
  font-weight: 600; min-height: 44px; padding: 0 20px; border-radius: 8px;
  border: 1px solid var(--border); background: var(--surface); color: var(--text); text-decoration: none;
}
.send:disabled { cursor: not-allowed; opacity: 1; background: var(--bg); border-color: var(--border); color: var(--muted); }

/* ---- send windows: fields on the left, the preview as recipients see it on the right */
.window { display: block; padding: 18px; }
.window[data-status="failed"] { border-left: 5px solid var(--danger); }
.window[data-status="sent"] { border-left: 5px solid var(--ok); }
.window-head { display: flex; gap: 12px; align-items: flex-start; justify-content: space-between; }
.window-title { font-size: 1.15rem; font-weight: 650; overflow-wrap: anywhere; }
.badge {
  flex: none; font-size: 0.85rem; font-weight: 650; padding: 3px 12px; border-radius: 999px;
  color: var(--muted); background: var(--bg); border: 1px solid var(--border);
}
.badge[data-status="sending"] { color: var(--waiting); background: var(--waiting-tint); }
.badge[data-status="sent"] { color: var(--ok); background: var(--ok-tint); }
.badge[data-status="failed"] { color: var(--danger); background: var(--danger-tint); }
.window-problem { margin-top: 12px; padding: 10px 14px; border-radius: 8px; background: var(--danger-tint); color: var(--danger); font-weight: 500; overflow-wrap: anywhere; }
.window-body { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 20px; margin-top: 14px; }
.fields { display: grid; grid-template-columns: minmax(0, 1fr); gap: 14px; align-content: start; }
.field label, .label { display: block; font-weight: 600; font-size: 0.92rem; margin-bottom: 4px; }
.field input, .field textarea, .field select {
  font: inherit; width: 100%; min-height: 44px; padding: 8px 10px;
  border: 1px solid var(--border); border-radius: 8px; background: var(--bg); color: var(--text);
}
.field textarea { resize: vertical; line-height: 1.4; field-sizing: content; }
.field textarea.recipients { min-height: 44px; max-height: 200px; }
.field textarea.message { min-height: 160px; max-height: 520px; }
.field [readonly] { color: var(--muted); }
.field [aria-invalid="true"] { border-color: var(--danger); }
.field-hint { color: var(--muted); font-size: 0.85rem; margin-top: 3px; }
.field-error { color: var(--danger); font-size: 0.9rem; font-weight: 500; margin-top: 4px; }
.attachments { list-style: none; margin: 0 0 8px; padding: 0; display: grid; gap: 6px; }
.attachments:empty { display: none; }
.attachment { display: flex; align-items: center; gap: 10px; padding: 6px 6px 6px 10px; border: 1px solid var(--border); border-radius: 8px; background: var(--surface); }
.file-icon { flex: none; font-size: 0.7rem; font-weight: 700; color: var(--danger); border: 1px solid currentColor; border-radius: 4px; padding: 1px 4px; }
.attachment-text { flex: 1; min-width: 0; display: flex; flex-direction: column; }
.attachment-label { color: var(--muted); font-size: 0.85rem; }
button.link {
  min-height: 0; padding: 0; border: none; background: none; color: var(--focus);
  font-weight: 600; text-align: left; text-decoration: underline; overflow-wrap: anywhere;
}
.remove-attachment { flex: none; min-height: 36px; padding: 0 12px; font-weight: 500; }
.preview { display: flex; flex-direction: column; }
.preview-frame { width: 100%; flex: 1; min-height: 380px; border: 1px solid var(--border); border-radius: 8px; background: #fff; }
.window-foot { margin-top: 16px; display: grid; gap: 8px; }
.delivery { color: var(--muted); font-size: 0.92rem; }
.delivery.off { color: var(--waiting); font-weight: 500; }
.save-state { font-size: 0.85rem; color: var(--muted); min-height: 1.2em; }
.save-state[data-state="problem"] { color: var(--danger); font-weight: 600; }
.window .actions { flex-wrap: wrap; }
.window .confirm { margin-top: 12px; }
@media (max-width: 860px) {
  .window-body { grid-template-columns: minmax(0, 1fr); }
  .preview-frame { min-height: 320px; }
}

/* ---- notices: fixed, so a message never moves a button about to be pressed */
.notices {
  position: fixed; left: 50%; bottom: 16px; transform: translateX(-50%); z-index: 10;
  width: min(560px, calc(100% - 24px)); display: flex; flex-direction: column; gap: 8px;
  pointer-events: none;
}
.notice {
  pointer-events: auto;
  display: flex; align-items: flex-start; gap: 12px; padding: 12px 12px 12px 16px;
  background: var(--surface); border: 1px solid var(--border); border-left: 5px solid var(--focus);
  border-radius: 10px; box-shadow: 0 6px 24px rgba(0, 0, 0, 0.18);
}
.notice p { flex: 1; padding-top: 2px; overflow-wrap: anywhere; }
.notice.ok { border-left-color: var(--ok); }
.notice.warn { border-left-color: var(--waiting); }
.notice.error { border-left-color: var(--danger); }
.notice-close { min-height: 32px; padding: 0 10px; border: none; background: transparent; font-size: 1.2rem; line-height: 1; color: var(--muted); }

/* ---- sign-in */
.sign-in-box {
  max-width: 440px; margin: 12vh auto 0; padding: 28px;
  background: var(--surface); border: 1px solid var(--border); border-radius: var(--radius);
}
.sign-in-box h1 { font-size: 1.4rem; margin-bottom: 8px; }
.sign-in-box h2 { font-size: 1.25rem; margin-bottom: 8px; }
.sign-in-box > p { color: var(--muted); margin-bottom: 20px; }
.sign-in-box form { display: grid; gap: 10px; }
.sign-in-box label { font-weight: 600; }
.sign-in-box input {
  font: inherit; min-height: 46px; padding: 0 12px; width: 100%;
  border: 1px solid var(--border); border-radius: 8px; background: var(--bg); color: var(--text);
}
.problem { color: var(--danger); font-weight: 500; min-height: 1.4em; }

/* ---- phones */
@media (max-width: 640px) {
  .top { padding: 12px 16px; }
  main { padding: 4px 14px 120px; }
  .card, .app { grid-template-columns: minmax(0, 1fr); gap: 12px; padding: 14px; }
  .actions { width: 100%; }
  .actions button { flex: 1; }
  .confirm .actions { width: 100%; }
  .window { padding: 14px; }
  .window .actions > * { flex: 1 1 auto; padding: 0 14px; white-space: nowrap; }
  .sign-in-box { margin: 6vh 14px 0; padding: 22px; }
}
`
