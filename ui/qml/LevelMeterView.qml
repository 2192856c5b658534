// The level-meter probe: a signal wire's RMS (over the newest 300 ms) and peak in dBFS as two bars
// on one scale, green up to −18 dBFS, amber to −6, red above, the held peak as a line that stays
// 2 s then falls 20 dB/s; the three values are read out above.
import QtQuick
import QtQuick.Layouts
import Isochron.Ui

Item {
    id: view
    property string probe
    property RunController run
    readonly property alias plot: plot

    LevelMeterPlot { id: plot; objectName: "levelMeterPlot"; probe: view.probe; anchors.fill: parent }

    function text(decibels) { return decibels <= -119.5 ? "−∞" : decibels.toFixed(1).replace("-", "−") }
    /// Horizontal position of `decibels` on the scale, 0 … width.
    function place(decibels, width) { return Math.max(0, Math.min(1, (decibels - plot.low) / (plot.high - plot.low))) * width }

    ColumnLayout {
        visible: plot.hasData
        anchors.fill: parent
        anchors.leftMargin: 8; anchors.rightMargin: 14; anchors.topMargin: 6; anchors.bottomMargin: 4
        spacing: 6
        Row {
            spacing: 18
            Repeater {
                model: [
                    {name: qsTr("RMS"), value: plot.rmsDecibels, id: "levelRms"},
                    {name: qsTr("peak"), value: plot.peakDecibels, id: "levelPeak"},
                    {name: qsTr("hold"), value: plot.heldDecibels, id: "levelHeld"}
                ]
                delegate: Column {
                    required property var modelData
                    Text { text: modelData.name; font.pixelSize: 10; color: Theme.textDim }
                    Text {
                        objectName: modelData.id
                        text: view.text(modelData.value) + " dBFS"
                        font.pixelSize: 15; font.family: Theme.monoFont; font.weight: Font.DemiBold
                        color: modelData.value > 0 ? Theme.error : Theme.text
                    }
                }
            }
        }
        Repeater {
            model: [{name: qsTr("RMS"), value: plot.rmsDecibels}, {name: qsTr("peak"), value: plot.peakDecibels}]
            delegate: Item {
                id: meter
                required property var modelData
                required property int index
                Layout.fillWidth: true
                Layout.preferredHeight: 16
                Text { id: name; width: 30; text: meter.modelData.name; font.pixelSize: 10; color: Theme.textDim; anchors.verticalCenter: parent.verticalCenter }
                Item {
                    id: track
                    anchors.left: name.right; anchors.right: parent.right
                    height: parent.height
                    Repeater {  // the zones, dim behind the bar and bright where the bar reaches
                        model: [{from: -1e9, to: -18, color: "#22c55e"}, {from: -18, to: -6, color: "#f59e0b"}, {from: -6, to: 1e9, color: "#ef4444"}]
                        delegate: Item {
                            required property var modelData
                            readonly property real zoneStart: view.place(modelData.from, track.width)
                            readonly property real zoneEnd: view.place(modelData.to, track.width)
                            x: zoneStart; width: zoneEnd - zoneStart; height: track.height
                            Rectangle { anchors.fill: parent; color: modelData.color; opacity: 0.18 }
                            Rectangle {
                                width: Math.max(0, Math.min(parent.width, view.place(meter.modelData.value, track.width) - parent.zoneStart))
                                height: parent.height
                                color: modelData.color
                            }
                        }
                    }
                    Rectangle {  // the held peak
                        objectName: "levelHoldLine"
                        visible: meter.index === 1 && plot.heldDecibels > plot.low
                        x: view.place(plot.heldDecibels, track.width) - 1
                        width: 2; height: track.height
                        color: Theme.text
                    }
                }
            }
        }
        Item {  // the dBFS scale
            Layout.fillWidth: true
            Layout.preferredHeight: 14
            Repeater {
                model: plot.ticks
                delegate: Text {
                    required property var modelData
                    x: 30 + view.place(modelData, parent.width - 30) - width / 2
                    text: modelData === 0 ? "0 dBFS" : String(modelData).replace("-", "−")
                    font.pixelSize: 10
                    color: Theme.textDim
                }
            }
        }
        Item { Layout.fillHeight: true }
    }
}
