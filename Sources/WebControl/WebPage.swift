/// The page's files, embedded in the binary as text (no build step, no
/// resource bundle: an installed fxhost serves them alone, offline). The
/// texts are in `WebPage+HTML`, `WebPage+Style` and `WebPage+Script`.
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

}
