// The waterfall probe: the dB spectra of a signal wire's newest samples as rows of colour, the
// newest at the top, scrolling down; frequency across with round ticks, the rows' age down the left
// and the colours' dB scale on the right. Point at it to read frequency, level and age.
import QtQuick
import Isochron.Ui

Item {
    id: view
    property string probe
    property RunController run
    readonly property alias plot: plot
    readonly property bool cursorShown: hover.hovered && plot.hasData

    /// Frequency in a readable unit: {scale, unit}.
    readonly property var xScale: plot.xUnit === "Hz" && plot.xTo >= 2000 ? {scale: 1000, unit: "kHz"} : {scale: 1, unit: plot.xUnit}
    readonly property real xStep: (plot.xTicks.length > 1 ? plot.xTicks[1] - plot.xTicks[0] : plot.xTo / 4) / xScale.scale
    function number(v, step, extra) {
        const s = Math.abs(step) > 0 ? Math.abs(step) : 1
        const digits = Math.max(0, Math.min(6, Math.ceil(-Math.log10(s) - 1e-9) + (extra || 0)))
        return v.toFixed(digits).replace("-", "−")
    }
    function xText(x) { return number(x / xScale.scale, xStep, 1) + " " + xScale.unit }

    WaterfallPlot {
        id: plot
        objectName: "waterfallPlot"
        anchors.fill: parent
        anchors.leftMargin: 42
        anchors.bottomMargin: 16
        anchors.topMargin: 4
        anchors.rightMargin: 44
        probe: view.probe
    }
    Rectangle {  // the plot's frame, so the empty rows below a young history read as part of it
        anchors.fill: plot
        color: "transparent"
        border.color: Theme.gridMajor
    }
    Repeater {  // frequency ticks and labels; the last one names the unit
        model: plot.hasData ? plot.xTicks : []
        delegate: Item {
            required property var modelData
            required property int index
            readonly property bool last: index === plot.xTicks.length - 1
            Rectangle { x: plot.x + plot.pixelOfX(modelData); y: plot.y + plot.height; width: 1; height: 3; color: Theme.textDim }
            Text {
                objectName: "waterfallTick"
                x: Math.min(plot.x + plot.pixelOfX(modelData) - width / 2, colourScale.x - width)  // clear of the scale's "dB"
                y: plot.y + plot.height + 2
                text: view.number(modelData / view.xScale.scale, view.xStep) + (parent.last ? " " + view.xScale.unit : "")
                font.pixelSize: 10
                color: Theme.textDim
            }
        }
    }
    Text {  // the age axis: now at the top, the oldest row's age at the bottom of the filled rows
        visible: plot.hasData
        x: plot.x - width - 4; y: plot.y
        text: qsTr("now")
        font.pixelSize: 10
        color: Theme.textDim
    }
    Text {
        objectName: "waterfallHistory"
        visible: plot.hasData && plot.historySeconds > 0
        x: plot.x - width - 4
        y: Math.min(plot.y + plot.height * plot.filledRows / plot.rows, plot.y + plot.height) - height
        text: "−" + (plot.historySeconds < 10 ? plot.historySeconds.toFixed(1) : plot.historySeconds.toFixed(0)) + " s"
        font.pixelSize: 10
        color: Theme.textDim
    }
    Rectangle {  // the dB colour scale: waterfallColour's stops, pale yellow at the top
        id: colourScale
        visible: plot.hasData
        x: plot.x + plot.width + 6; y: plot.y
        width: 8; height: plot.height
        gradient: Gradient {
            GradientStop { position: 0.0; color: "#fcffa4" }
            GradientStop { position: 0.25; color: "#f67d15" }
            GradientStop { position: 0.5; color: "#9f2a63" }
            GradientStop { position: 0.75; color: "#280b54" }
            GradientStop { position: 1.0; color: "#000004" }
        }
    }
    Repeater {
        model: plot.hasData ? plot.levelTicks : []
        delegate: Text {
            required property var modelData
            x: colourScale.x + colourScale.width + 3
            y: colourScale.y + (plot.high - modelData) / (plot.high - plot.low) * colourScale.height - height / 2
            text: view.number(modelData, 10)
            font.pixelSize: 10
            color: Theme.textDim
        }
    }
    Text {
        visible: plot.hasData
        x: colourScale.x + colourScale.width + 3; y: plot.y + plot.height + 2
        text: "dB"
        font.pixelSize: 10
        color: Theme.textFaint
    }
    Rectangle {
        id: readout
        objectName: "waterfallReadout"
        readonly property var reading: { plot.filledRows; plot.high; return view.cursorShown ? plot.readingAt(hover.point.position.x - plot.x, hover.point.position.y - plot.y) : ({}) }
        visible: view.cursorShown && reading.x !== undefined
        x: Math.min(plot.x + plot.width - width, Math.max(plot.x, hover.point.position.x + 8))
        y: plot.y + 2
        width: readoutText.implicitWidth + 10
        height: readoutText.implicitHeight + 4
        radius: 3
        color: Theme.panel
        border.color: Theme.border
        Text {
            id: readoutText
            anchors.centerIn: parent
            text: readout.visible ? view.xText(readout.reading.x) + "   " + view.number(readout.reading.y, 1) + " dB   −" + readout.reading.age.toFixed(2) + " s" : ""
            font.pixelSize: 10
            font.family: Theme.monoFont
            color: Theme.text
        }
    }
    HoverHandler { id: hover }
}
