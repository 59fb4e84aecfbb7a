/// The page's files, embedded in the binary as text (no build step, no
/// resource bundle: an installed fxhost serves them alone, offline).
enum WebPage {
    struct File: Sendable {
        let path: String
        let type: String
        let text: String
    }

    static let files: [File] = [
        File(path: "/", type: "text/html; charset=utf-8", text: html),
        File(path: "/app.js", type: "text/javascript; charset=utf-8", text: script),
        File(path: "/style.css", type: "text/css; charset=utf-8", text: style),
    ]

    static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>fxhost</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="stylesheet" href="/style.css"></head>
        <body><main id="app"></main><script type="module" src="/app.js"></script></body></html>
        """
    static let script = ""
    static let style = ""
}
