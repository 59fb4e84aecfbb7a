import LiveControl
import ArgumentParser

struct Fxhost: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fxhost",
        abstract: "Run LV2 effect chains from patch files: live on JACK, bounce offline, check, inspect plugins.",
        discussion: """
            A patch file (YAML) declares a graph of LV2 plugins, file players, buses and outputs. `fxhost render` bounces it to a file with no audio server; `--chain` builds a patch on the command line instead.

            Examples:
              fxhost plugins overdrive
              fxhost info mda/Overdrive
              fxhost check Presets/guitar-crunch.yaml
              fxhost render Presets/guitar-crunch.yaml -i guitar.wav -o crunch.flac
              fxhost render --chain "mda/Overdrive drive=0.7 ! mda/Ambience mix=0.3" -i in.wav -o out.wav
              fxhost run Presets/guitar-crunch.yaml --server studio --tap main=take.wav
            """,
        // `--version` prints fxhost's version and the lilv, JACK and
        // libsndfile it runs with; asking the libraries takes microseconds.
        version: FxhostVersion.text,
        subcommands: [PluginsCommand.self, InfoCommand.self, CheckCommand.self, GraphCommand.self, RenderCommand.self,
                      RunCommand.self])
}
