// Colours, sizes and fonts of the editor, light and dark. One place, so every panel agrees.
pragma Singleton
import QtQuick

QtObject {
    property bool dark: false

    readonly property color window: dark ? "#16181d" : "#eef0f3"
    readonly property color panel: dark ? "#1f2229" : "#ffffff"
    readonly property color panelAlt: dark ? "#262a33" : "#f6f7f9"
    readonly property color panelHeader: dark ? "#23272f" : "#f9fafb"
    readonly property color border: dark ? "#333844" : "#dde1e7"
    readonly property color canvas: dark ? "#14161b" : "#f7f8fa"
    readonly property color gridMinor: dark ? "#0fffffff" : "#0c1f2937"
    readonly property color gridMajor: dark ? "#1cffffff" : "#181f2937"
    readonly property color text: dark ? "#e6e8ec" : "#1c2430"
    readonly property color textDim: dark ? "#9aa3b2" : "#687385"
    readonly property color textFaint: dark ? "#6b7383" : "#9aa3b0"
    readonly property color accent: "#3b82f6"
    readonly property color accentSoft: dark ? "#1d3a66" : "#dbeafe"
    readonly property color selection: "#f59e0b"
    readonly property color error: "#ef4444"
    readonly property color warning: "#f59e0b"
    readonly property color success: "#22c55e"
    readonly property color nodeBody: dark ? "#242833" : "#ffffff"
    readonly property color nodeHeader: dark ? "#2c3140" : "#f3f5f8"
    readonly property color nodeBorder: dark ? "#3a4152" : "#cfd5de"
    readonly property color shadow: dark ? "#60000000" : "#1a0f172a"
    readonly property color hover: dark ? "#2d3340" : "#eef2f7"

    readonly property int fontSize: 12
    readonly property int smallFontSize: 11
    readonly property string monoFont: "DejaVu Sans Mono"
    readonly property real gridStep: 20

    /// Colour of an operator category (the stripe on a node's title bar and the palette headers).
    function categoryColor(category) {
        switch (category) {
        case "io": return "#0ea5e9"
        case "generators": return "#8b5cf6"
        case "segments": return "#14b8a6"
        case "stats": return "#22c55e"
        case "detect": return "#f97316"
        case "spectral": return "#6366f1"
        case "spatial": return "#ec4899"
        case "capture": return "#06b6d4"
        case "subgraph": return "#a16207"
        default: return "#94a3b8"
        }
    }

    /// Colour of a node's run or problem state.
    // A partition's colour on the canvas (the rank that runs it under mpirun): distinct for 0-7, then repeating.
    function partitionColor(partition) {
        const colors = ["#0ea5e9", "#f97316", "#22c55e", "#e11d48", "#a855f7", "#eab308", "#14b8a6", "#64748b"]
        return partition < 0 ? "transparent" : colors[partition % colors.length]
    }

    function statusColor(status) {
        switch (status) {
        case "error": case "failed": return error
        case "warning": case "overloaded": return warning
        case "running": return success
        case "finished": return textFaint
        default: return "transparent"
        }
    }
}
