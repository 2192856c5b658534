// A titled live plot with a legend, value labels on its grid lines and a time axis. The legend sits
// in one row above the plot, or (legendAside, for many series) in a scrolling column beside it, so
// it never covers the lines and every entry stays reachable.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: card
    property string title
    property string unit
    property alias store: plot.store
    property alias series: plot.series
    property alias timeWindow: plot.timeWindow
    property alias includeZero: plot.includeZero
    property alias fixedMinimum: plot.fixedMinimum
    property alias fixedMaximum: plot.fixedMaximum
    property alias plot: plot
    /// Legend entries: [{label, color, tip (optional)}].
    property var legend: []
    /// Show the legend as a column beside the plot (every entry, scrolling) instead of above it.
    property bool legendAside: false
    /// Text at the right of the title (a current value).
    property string reading
    objectName: "plotCard"
    color: Theme.panel
    radius: 6
    border.color: Theme.border

    function format(v) {
        const a = Math.abs(v)
        if (a >= 1e9) return (v / 1e9).toFixed(a >= 1e10 ? 0 : 1) + "G"
        if (a >= 1e6) return (v / 1e6).toFixed(a >= 1e7 ? 0 : 1) + "M"
        if (a >= 1e3) return (v / 1e3).toFixed(a >= 1e4 ? 0 : 1) + "k"
        if (a >= 10 || a === 0) return v.toFixed(0)
        return v.toPrecision(2)
    }
    /// A time-axis end, in seconds: whole seconds from 10 s, else two significant digits ("0.15", "2.5").
    function seconds(t) {
        return t >= 10 || t === 0 ? t.toFixed(0) : String(Number(t.toPrecision(2)))
    }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: 8
        spacing: 4
        Item {  // the title, and the reading at the right (the title elides first)
            Layout.fillWidth: true
            implicitHeight: titleText.implicitHeight
            Text {
                id: titleText
                objectName: "plotTitle"
                width: parent.width - (readingText.visible ? readingText.width + 10 : 0)
                text: card.title
                font.pixelSize: Theme.fontSize
                font.weight: Font.DemiBold
                color: Theme.text
                elide: Text.ElideRight
                ToolTip.visible: truncated && titleHover.hovered
                ToolTip.text: card.title
                HoverHandler { id: titleHover }
            }
            Text {
                id: readingText
                objectName: "plotReading"
                visible: card.reading.length > 0
                anchors.right: parent.right
                anchors.verticalCenter: titleText.verticalCenter
                width: Math.min(implicitWidth, parent.width * 0.5)
                text: card.reading
                elide: Text.ElideLeft
                font.pixelSize: Theme.smallFontSize
                font.family: Theme.monoFont
                color: Theme.text
            }
        }
        Flow {  // its height taken from its rows, so the plot below never slides under it
            id: legendFlow
            objectName: "plotLegendRow"
            Layout.fillWidth: true
            Layout.preferredHeight: implicitHeight
            visible: card.legend.length > 0 && !card.legendAside
            spacing: 10
            Repeater {
                model: card.legendAside ? [] : card.legend
                delegate: Row {
                    required property var modelData
                    spacing: 4
                    Rectangle { width: 10; height: 3; radius: 1; color: modelData.color; anchors.verticalCenter: parent.verticalCenter }
                    Text { text: modelData.label; font.pixelSize: 10; color: Theme.textDim }
                }
            }
        }
        RowLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: 8
            Item {
                Layout.fillWidth: true
                Layout.fillHeight: true
                Item {
                    id: area
                    objectName: "plotArea"
                    anchors.fill: parent
                    anchors.leftMargin: 40
                    anchors.bottomMargin: 14
                    LivePlot {
                        id: plot
                        anchors.fill: parent
                        gridColor: Theme.gridMajor
                        clip: true
                    }
                    Repeater {
                        model: plot.ticks
                        delegate: Text {
                            required property var modelData
                            objectName: "plotTick"
                            x: -width - 6
                            y: area.height - (modelData - plot.low) / (plot.high - plot.low) * area.height - height / 2
                            text: card.format(modelData)
                            font.pixelSize: 9
                            color: Theme.textFaint
                        }
                    }
                    Text {
                        anchors.top: parent.bottom; anchors.topMargin: 1
                        x: 0
                        objectName: "plotTimeFrom"
                        text: card.seconds(plot.timeFrom) + " s"
                        font.pixelSize: 9; color: Theme.textFaint
                    }
                    Text {
                        anchors.top: parent.bottom; anchors.topMargin: 1
                        anchors.right: parent.right
                        objectName: "plotTimeTo"
                        text: card.seconds(plot.timeTo) + " s" + (card.unit.length ? " · " + card.unit : "")
                        font.pixelSize: 9; color: Theme.textFaint
                    }
                }
            }
            ListView {  // the legend beside the plot: every series, scrolling when they do not fit
                objectName: "legendColumn"
                visible: card.legendAside && card.legend.length > 0
                Layout.preferredWidth: Math.min(130, Math.max(80, card.width * 0.34))
                Layout.fillHeight: true
                clip: true
                boundsBehavior: Flickable.StopAtBounds
                model: card.legendAside ? card.legend : []
                ScrollBar.vertical: ScrollBar { policy: ScrollBar.AsNeeded }
                delegate: Row {
                    required property var modelData
                    width: ListView.view.width
                    height: 15
                    spacing: 4
                    Rectangle { width: 10; height: 3; radius: 1; color: modelData.color; anchors.verticalCenter: parent.verticalCenter }
                    Text {
                        width: parent.width - 14 - 8
                        anchors.verticalCenter: parent.verticalCenter
                        text: modelData.label
                        elide: Text.ElideRight
                        font.pixelSize: 10
                        color: Theme.textDim
                        ToolTip.visible: truncated && legendHover.hovered
                        ToolTip.text: modelData.label
                        HoverHandler { id: legendHover }
                    }
                }
            }
        }
    }
}
