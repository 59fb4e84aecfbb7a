/// The LV2 and RDF URIs the bridge asks lilv about or hands to plugins.
enum LV2URI {
    static let lv2 = "http://lv2plug.in/ns/lv2core#"
    static let audioPort = lv2 + "AudioPort"
    static let controlPort = lv2 + "ControlPort"
    static let cvPort = lv2 + "CVPort"
    static let outputPort = lv2 + "OutputPort"
    static let connectionOptional = lv2 + "connectionOptional"
    static let isSideChain = lv2 + "isSideChain"
    static let toggled = lv2 + "toggled"
    static let integer = lv2 + "integer"
    static let enumeration = lv2 + "enumeration"
    static let designation = lv2 + "designation"
    static let latency = lv2 + "latency"
    static let reportsLatency = lv2 + "reportsLatency"
    static let freeWheeling = lv2 + "freeWheeling"
    static let enabled = lv2 + "enabled"
    static let isLive = lv2 + "isLive"
    static let inPlaceBroken = lv2 + "inPlaceBroken"
    static let hardRTCapable = lv2 + "hardRTCapable"

    static let atomPort = "http://lv2plug.in/ns/ext/atom#AtomPort"
    static let atomSequence = "http://lv2plug.in/ns/ext/atom#Sequence"
    static let atomChunk = "http://lv2plug.in/ns/ext/atom#Chunk"
    static let atomFloat = "http://lv2plug.in/ns/ext/atom#Float"
    static let atomDouble = "http://lv2plug.in/ns/ext/atom#Double"
    static let atomInt = "http://lv2plug.in/ns/ext/atom#Int"
    static let atomLong = "http://lv2plug.in/ns/ext/atom#Long"
    static let atomBool = "http://lv2plug.in/ns/ext/atom#Bool"
    static let minimumSize = "http://lv2plug.in/ns/ext/resize-port#minimumSize"

    static let uridMap = "http://lv2plug.in/ns/ext/urid#map"
    static let uridUnmap = "http://lv2plug.in/ns/ext/urid#unmap"
    static let options = "http://lv2plug.in/ns/ext/options#options"
    static let boundedBlockLength = "http://lv2plug.in/ns/ext/buf-size#boundedBlockLength"
    static let fixedBlockLength = "http://lv2plug.in/ns/ext/buf-size#fixedBlockLength"
    static let minBlockLength = "http://lv2plug.in/ns/ext/buf-size#minBlockLength"
    static let maxBlockLength = "http://lv2plug.in/ns/ext/buf-size#maxBlockLength"
    static let nominalBlockLength = "http://lv2plug.in/ns/ext/buf-size#nominalBlockLength"
    static let sequenceSize = "http://lv2plug.in/ns/ext/buf-size#sequenceSize"
    static let sampleRate = "http://lv2plug.in/ns/ext/parameters#sampleRate"
    static let loadDefaultState = "http://lv2plug.in/ns/ext/state#loadDefaultState"
    static let workerSchedule = "http://lv2plug.in/ns/ext/worker#schedule"
    static let workerInterface = "http://lv2plug.in/ns/ext/worker#interface"
    static let log = "http://lv2plug.in/ns/ext/log#log"
    static let logError = "http://lv2plug.in/ns/ext/log#Error"
    static let logWarning = "http://lv2plug.in/ns/ext/log#Warning"
    static let logTrace = "http://lv2plug.in/ns/ext/log#Trace"

    static let preset = "http://lv2plug.in/ns/ext/presets#Preset"
    static let rdfsLabel = "http://www.w3.org/2000/01/rdf-schema#label"
    static let rdfsSeeAlso = "http://www.w3.org/2000/01/rdf-schema#seeAlso"
    static let appliesTo = lv2 + "appliesTo"
    static let prototype = lv2 + "prototype"
    static let unitsUnit = "http://lv2plug.in/ns/extensions/units#unit"
    static let unitsSymbol = "http://lv2plug.in/ns/extensions/units#symbol"
    static let doapName = "http://usefulinc.com/ns/doap#name"
    /// The specifications whose data a plugin's description reads: plugin
    /// classes (lv2core) and unit symbols (units).
    static let coreSpecification = "http://lv2plug.in/ns/lv2core"
    static let unitsSpecification = "http://lv2plug.in/ns/extensions/units"

    /// Features the host provides, or accepts because they only describe the plugin.
    static let supportedFeatures: Set<String> = [
        uridMap, uridUnmap, options, boundedBlockLength, loadDefaultState, workerSchedule, log,
        isLive, inPlaceBroken, hardRTCapable,
    ]
}
