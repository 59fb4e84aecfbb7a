extension WebPage {
    /// Phone first (390 px wide and up), nothing needs hover, touch targets 44 px.
    static let style = ##"""
        :root { color-scheme: dark; --bg: #15171a; --panel: #1f2328; --line: #3a4048; --text: #e8eaed; --dim: #8a929c;
                --accent: #4fb3ff; --warn: #ff6b5b; --ok: #62d26f; font-family: system-ui, sans-serif; }
        * { box-sizing: border-box; }
        body { margin: 0; background: var(--bg); color: var(--text); font-size: 16px; }
        header.bar { position: sticky; top: 0; z-index: 2; display: flex; flex-wrap: wrap; gap: 4px 12px; align-items: center;
                     padding: 6px 10px; background: #0d0f11; border-bottom: 1px solid var(--line); }
        h1 { font-size: 18px; margin: 0; }
        h2 { font-size: 17px; margin: 0; }
        .connection { font-size: 13px; color: var(--dim); }
        .connection.live { color: var(--ok); }
        .stat { font-size: 13px; color: var(--dim); }
        .meters { flex: 1 1 100%; display: flex; flex-direction: column; gap: 2px; }
        .meter { display: grid; grid-template-columns: 5em minmax(0, 1fr) 5.5em; gap: 6px; align-items: center; font-size: 12px; }
        .meter .track { height: 8px; background: #2a2f35; border-radius: 4px; overflow: hidden; }
        .meter .fill { height: 100%; width: 0; background: var(--ok); }
        .meter .fill.hot { background: var(--warn); }
        main { padding: 8px; display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; max-width: 1100px; margin: 0 auto; }
        .graph-scroll { overflow-x: auto; background: var(--panel); border-radius: 8px; }
        #graph { display: block; }
        #graph .node rect { fill: #2b3138; stroke: var(--line); }
        #graph .node.plugin rect { fill: #23384a; }
        #graph .node.bypassed { opacity: 0.45; }
        #graph .node.selected rect { stroke: var(--accent); stroke-width: 2; }
        #graph .node text { fill: var(--text); font-size: 12px; }
        #graph .node { cursor: pointer; }
        #graph .edge { stroke: var(--dim); fill: none; }
        #graph .tap-mark { fill: var(--warn); }
        .panel { background: var(--panel); border-radius: 8px; padding: 10px; display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; align-content: start; min-width: 0; }
        .panel.selected { outline: 2px solid var(--accent); }
        .row { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
        .node-head { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; }
        .node-head h2 { flex: 1 1 auto; }
        button, select, input { font: inherit; color: var(--text); background: #2b3138; border: 1px solid var(--line);
                                border-radius: 6px; min-height: 44px; padding: 0 12px; }
        input[type=text] { flex: 1 1 8em; min-width: 0; }
        input[type=number] { width: 6em; }
        button:focus-visible, select:focus-visible, input:focus-visible, .slider:focus-visible, #graph .node:focus-visible { outline: 2px solid var(--accent); outline-offset: 2px; }
        button[role=switch][aria-checked=true] { background: var(--accent); color: #000; }
        button.recording { background: var(--warn); color: #000; }
        .param { display: grid; grid-template-columns: minmax(4em, 8em) minmax(0, 1fr) 5.5em auto; gap: 6px; align-items: center; }
        .param .name { font-size: 14px; overflow-wrap: anywhere; }
        .param .value { font-size: 13px; color: var(--dim); text-align: right; font-variant-numeric: tabular-nums; }
        .param .learn { min-height: 44px; padding: 0 8px; font-size: 12px; }
        .param .learn[aria-pressed=true] { background: var(--accent); color: #000; }
        .param .refusal, .panel .refusal { grid-column: 1 / -1; }
        .param .binding { grid-column: 1 / -1; margin: 0; font-size: 12px; color: var(--dim); overflow-wrap: anywhere; }
        .param .binding:empty { display: none; }
        .param .learn[aria-pressed=true] { border-color: var(--warn); }
        .param .points { grid-column: 2 / -1; justify-self: start; min-height: 44px; }
        .slider { position: relative; height: 44px; margin: 0 12px; touch-action: none; cursor: pointer; border-radius: 6px; }
        .slider .rail { position: absolute; left: 0; right: 0; top: 19px; height: 6px; background: #3a4048; border-radius: 3px; }
        .slider .level { position: absolute; left: 0; top: 19px; height: 6px; background: var(--accent); border-radius: 3px; }
        .slider .thumb { position: absolute; top: 10px; width: 24px; height: 24px; margin-left: -12px; border-radius: 50%;
                         background: var(--text); }
        .refusal { color: var(--warn); margin: 0; font-size: 14px; min-height: 0; }
        .refusal:empty { display: none; }
        .taps { display: grid; gap: 6px; }
        .tap { display: flex; flex-wrap: wrap; gap: 8px; align-items: center; font-size: 14px; }
        .log { margin: 0; padding-left: 1.2em; font-size: 13px; color: var(--dim); max-height: 10em; overflow-y: auto; }
        .log .refused { color: var(--warn); }
        @media (max-width: 600px) {
          .param { grid-template-columns: minmax(0, 1fr) auto auto; }
          .param .name { grid-row: 1; grid-column: 1; }
          .param .value { grid-row: 1; grid-column: 2; }
          .param .learn { grid-row: 1; grid-column: 3; }
          .param > .slider, .param > select, .param > button[role=switch], .param > input { grid-row: 2; grid-column: 1 / -1; }
          .param > select.points { grid-row: 3; grid-column: 1 / -1; }
          .param .binding { grid-row: 4; }
          .param .refusal { grid-row: 5; }
        }
        #nodes { display: grid; grid-template-columns: minmax(0, 1fr); gap: 10px; }
        @media (min-width: 900px) { #nodes { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
        """##
}
