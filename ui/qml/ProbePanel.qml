// The probes on wires: one small scope or spectrum per probe, over the canvas, fed from the probes'
// lock-free rings while the graph runs.
import QtQuick
import QtQuick.Layouts
import Isochron.Ui

Column {
    id: panel
    property RunController run
    spacing: 8

    Repeater {
        model: panel.run.probes
        delegate: Rectangle {
            id: card
            required property var modelData
            width: 330
            height: 170
            radius: 8
            color: Theme.panel
            border.color: Theme.border
            opacity: 0.96
            ColumnLayout {
                anchors.fill: parent
                anchors.margins: 8
                spacing: 4
                RowLayout {
                    Layout.fillWidth: true
                    Icon { name: "probe"; size: 15; color: Theme.accent }
                    Text {
                        Layout.fillWidth: true
                        text: (plot.mode === "spectrum" ? qsTr("Spectrum") : qsTr("Scope")) + " — " + card.modelData.label
                        font.pixelSize: Theme.smallFontSize; font.weight: Font.DemiBold; color: Theme.text
                        elide: Text.ElideRight
                    }
                    IconButton { iconName: "close"; implicitWidth: 24; implicitHeight: 22; tip: qsTr("Remove probe"); onClicked: panel.run.removeProbe(card.modelData.key) }
                }
                Item {
                    Layout.fillWidth: true
                    Layout.fillHeight: true
                    ProbePlot {
                        id: plot
                        clip: true
                        anchors.fill: parent
                        anchors.leftMargin: 34
                        anchors.bottomMargin: 12
                        probe: card.modelData.key
                        color: card.modelData.kind === "spectrum" ? "#a855f7" : Theme.accent
                        gridColor: Theme.gridMajor
                    }
                    Text { visible: plot.hasData; y: 0; text: plot.high.toFixed(plot.mode === "spectrum" ? 0 : 2) + (plot.mode === "spectrum" ? " dB" : ""); font.pixelSize: 9; color: Theme.textFaint }
                    Text { visible: plot.hasData; y: parent.height - 24; text: plot.low.toFixed(plot.mode === "spectrum" ? 0 : 2); font.pixelSize: 9; color: Theme.textFaint }
                    Text {
                        visible: plot.hasData && plot.extent > 0
                        anchors.right: parent.right; anchors.bottom: parent.bottom
                        text: plot.mode === "spectrum" ? (plot.extent / 1000).toFixed(1) + " kHz" : (plot.extent * 1000).toFixed(1) + " ms"
                        font.pixelSize: 9; color: Theme.textFaint
                    }
                    Text {
                        visible: !plot.hasData
                        anchors.centerIn: parent
                        text: panel.run.running ? qsTr("waiting for data…") : qsTr("shown while the graph runs")
                        font.pixelSize: Theme.smallFontSize; color: Theme.textDim
                    }
                }
            }
        }
    }
}
