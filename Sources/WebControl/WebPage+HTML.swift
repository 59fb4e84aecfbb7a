extension WebPage {
    /// The page's skeleton; `app.js` fills it from `GET /api/v1/state` and the events stream.
    static let html = ##"""
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>fxhost</title>
        <link rel="stylesheet" href="/style.css">
        <link rel="icon" href="data:,">
        </head>
        <body>
        <header class="bar">
          <h1>fxhost</h1>
          <span id="connection" class="connection" role="status" aria-live="polite">connecting…</span>
          <span class="stat">DSP <output id="dsp" aria-label="DSP load">–</output></span>
          <span class="stat">xruns <output id="xruns" aria-label="xruns">–</output></span>
          <div id="meters" class="meters" aria-label="output meters"></div>
        </header>
        <main>
          <section id="graph-section" aria-label="graph">
            <div class="graph-scroll"><svg id="graph" role="img" aria-label="the patch's graph"></svg></div>
          </section>
          <section id="session" class="panel" aria-label="session">
            <div class="row">
              <label>tempo <input id="tempo" type="number" min="1" max="999" step="0.1" inputmode="decimal" aria-label="tempo"></label>
              <button id="tap-tempo" type="button">tap tempo</button>
              <button id="transport" type="button" role="switch" aria-checked="false" aria-label="transport">transport</button>
              <button id="save" type="button">save</button>
            </div>
            <div class="row">
              <input id="bounce-file" type="text" value="bounce.wav" aria-label="bounce file" spellcheck="false">
              <button id="bounce" type="button">bounce</button>
              <button id="bounce-cancel" type="button" hidden>cancel bounce</button>
              <progress id="bounce-progress" max="1" value="0" hidden aria-label="bounce progress"></progress>
            </div>
            <div class="row" id="scene-controls">
              <label id="scene-glide-label">glide (s) <input id="scene-glide" type="number" min="0" max="60" step="0.1" value="0" inputmode="decimal" aria-label="scene glide seconds"></label>
              <button id="feedback" type="button" hidden>send feedback</button>
            </div>
            <div id="setlist" class="row" aria-label="setlist" hidden>
              <button id="setlist-prev" type="button" aria-label="previous patch">◀ prev</button>
              <select id="setlist-patch" aria-label="setlist patch"></select>
              <button id="setlist-next" type="button" aria-label="next patch">next ▶</button>
            </div>
            <div id="scenes" class="row" aria-label="scenes"></div>
            <div id="taps" aria-label="taps"></div>
            <p class="refusal" role="alert" id="session-refusal"></p>
          </section>
          <div id="nodes"></div>
          <section class="panel" aria-label="messages">
            <h2>messages</h2>
            <ol id="log" class="log" aria-live="polite"></ol>
          </section>
        </main>
        <script type="module" src="/app.js"></script>
        </body>
        </html>
        """##
}
