// A probe's plot with its axes: value labels on the horizontal grid lines, the horizontal axis
// labelled in its unit, and, under the pointer, a cursor line with the value there.
import QtQuick
import Isochron.Ui

Item {
    id: axes
    property string probe
    property string kind: "scope"
    property color color: Theme.accent
    /// Unit of the values ("dB" for a spectrum).
    property string valueUnit
    readonly property alias plot: plot
    readonly property bool cursorShown: hover.hovered && plot.hasData

    /// The horizontal axis in a readable unit: {scale, unit} to divide x by and name it.
    readonly property var xScale: {
        const span = Math.max(Math.abs(plot.xFrom), Math.abs(plot.xTo))
        if (plot.xUnit === "Hz") return span >= 2000 ? {scale: 1000, unit: "kHz"} : {scale: 1, unit: "Hz"}
        if (plot.xUnit === "s") return span < 1 ? {scale: 0.001, unit: "ms"} : {scale: 1, unit: "s"}
        return {scale: 1, unit: plot.xUnit === "item" ? qsTr("items") : plot.xUnit}
    }
    /// `v` with as many decimals as a grid `step` apart needs (a readout gets one more).
    function number(v, step, extra) {
        const s = Math.abs(step) > 0 ? Math.abs(step) : 1
        const digits = Math.max(0, Math.min(6, Math.ceil(-Math.log10(s) - 1e-9) + (extra || 0)))
        return v.toFixed(digits).replace("-", "−")
    }
    function tickStep(ticks, low, high) { return ticks.length > 1 ? ticks[1] - ticks[0] : (high - low) / 4 }
    readonly property real xStep: tickStep(plot.xTicks, plot.xFrom, plot.xTo) / xScale.scale
    readonly property real yStep: tickStep(plot.yTicks, plot.low, plot.high)
    function xText(x) { return number(x / xScale.scale, xStep, 1) + " " + xScale.unit }
    function yText(y) { return number(y, yStep, 1) + (valueUnit.length ? " " + valueUnit : "") }

    ProbePlot {
        id: plot
        objectName: "probePlot"
        clip: true
        anchors.fill: parent
        anchors.leftMargin: 42
        anchors.bottomMargin: 16
        anchors.topMargin: 4
        anchors.rightMargin: 6
        probe: axes.probe
        kind: axes.kind
        color: axes.color
        gridColor: Theme.gridMajor
    }
    Repeater {  // value labels
        model: plot.hasData ? plot.yTicks : []
        delegate: Text {
            required property var modelData
            x: plot.x - width - 4
            y: plot.y + plot.height - (modelData - plot.low) / (plot.high - plot.low) * plot.height - height / 2
            visible: y > -2 && y + height < axes.height - 12
            text: axes.number(modelData, axes.yStep)
            font.pixelSize: 10
            color: Theme.textDim
        }
    }
    Text {
        visible: plot.hasData && axes.valueUnit.length > 0
        x: 2; y: 0
        text: axes.valueUnit
        font.pixelSize: 10
        color: Theme.textFaint
    }
    Repeater {  // horizontal axis labels; the last one names the unit
        model: plot.hasData ? plot.xTicks : []
        delegate: Text {
            required property var modelData
            required property int index
            readonly property bool last: index === plot.xTicks.length - 1
            x: Math.min(plot.x + plot.pixelOfX(modelData) - width / 2, axes.width - width)
            y: plot.y + plot.height + 2
            text: axes.number(modelData / axes.xScale.scale, axes.xStep) + (last ? " " + axes.xScale.unit : "")
            font.pixelSize: 10
            color: Theme.textDim
        }
    }
    Rectangle {  // the cursor
        visible: axes.cursorShown
        x: plot.x + Math.max(0, Math.min(plot.width, hover.point.position.x - plot.x))
        y: plot.y
        width: 1
        height: plot.height
        color: Theme.textDim
    }
    Rectangle {
        id: readout
        objectName: "probeReadout"
        readonly property var reading: { plot.xFrom; plot.high; return axes.cursorShown ? plot.readingAt(hover.point.position.x - plot.x) : ({}) }
        visible: axes.cursorShown && reading.x !== undefined
        x: Math.min(plot.x + plot.width - width, Math.max(plot.x, hover.point.position.x + 6))
        y: plot.y + 2
        width: readoutText.implicitWidth + 10
        height: readoutText.implicitHeight + 4
        radius: 3
        color: Theme.panel
        border.color: Theme.border
        Text {
            id: readoutText
            anchors.centerIn: parent
            text: readout.visible ? axes.xText(readout.reading.x) + "   " + axes.yText(readout.reading.y) : ""
            font.pixelSize: 10
            font.family: Theme.monoFont
            color: Theme.text
        }
    }
    HoverHandler { id: hover }
}
