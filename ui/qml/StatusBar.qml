// The status bar: engine state, scheduler, input rate, engine CPU and memory; graph size, problems, zoom.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: bar
    property GraphDocument document
    property RunController run
    property real zoom: 1
    implicitHeight: 26
    color: Theme.panelHeader
    Rectangle { width: parent.width; height: 1; color: Theme.border }

    function rate(v) { return v >= 1e9 ? (v / 1e9).toFixed(2) + " G" : v >= 1e6 ? (v / 1e6).toFixed(2) + " M" : v >= 1e3 ? (v / 1e3).toFixed(1) + " k" : v.toFixed(0) + " " }

    RowLayout {
        anchors.fill: parent
        anchors.leftMargin: 10
        anchors.rightMargin: 10
        spacing: 18
        Row {
            spacing: 6
            Rectangle {
                anchors.verticalCenter: parent.verticalCenter
                width: 8; height: 8; radius: 4
                color: bar.run.running ? Theme.success : bar.run.state === "failed" ? Theme.error : Theme.textFaint
            }
            Text {
                objectName: "engineState"
                // A run that failed says why (its first line; all of it in the tooltip and the Problems tab).
                readonly property string cause: bar.run.state === "failed" ? bar.run.message.split("\n")[0] : ""
                text: bar.run.state + (bar.run.running || bar.run.state === "finished" || bar.run.state === "stopped" ? " · " + bar.run.schedulerText
                                       : cause.length ? ": " + cause : "")
                color: Theme.text
                font.pixelSize: Theme.smallFontSize
                width: Math.min(implicitWidth, bar.width * 0.6)
                elide: Text.ElideRight
                ToolTip.visible: cause.length > 0 && stateHover.hovered
                ToolTip.text: bar.run.message
                HoverHandler { id: stateHover }
            }
        }
        Text { visible: bar.run.running; text: bar.run.elapsed.toFixed(1) + " s"; color: Theme.textDim; font.pixelSize: Theme.smallFontSize; font.family: Theme.monoFont }
        Text {  // a followed file that stopped growing: its writer may be gone
            objectName: "staleFollow"
            visible: bar.run.running && bar.run.staleSeconds > 0
            text: qsTr("no new data for %1 s (Stop ends following)").arg(bar.run.staleSeconds)
            color: Theme.warning
            font.pixelSize: Theme.smallFontSize
        }
        Text {  // one operator call keeps the engine: the counts shown are as far as it got
            objectName: "busyNode"
            visible: bar.run.running && bar.run.busy.length > 0
            text: qsTr("busy: %1").arg(bar.run.busy)
            color: Theme.warning
            font.pixelSize: Theme.smallFontSize
            ToolTip.visible: busyHover.hovered
            ToolTip.text: qsTr("One call of this node has kept the engine since the last full snapshot: counts go on, other figures wait for the call to return")
            HoverHandler { id: busyHover }
        }
        Text {
            objectName: "inputRate"
            visible: bar.run.running
            // Sources of events or tuples send items without samples: their rate reads in items/s.
            text: !bar.run.inputItemsOnly ? qsTr("input %1samples/s").arg(bar.rate(bar.run.throughput))
                                          : qsTr("input %1items/s").arg(bar.rate(bar.run.inputItemsPerSecond))
            color: Theme.textDim
            font.pixelSize: Theme.smallFontSize
            font.family: Theme.monoFont
            ToolTip.visible: inputHover.hovered
            ToolTip.text: !bar.run.inputItemsOnly ? qsTr("Samples per second the sources send into the graph")
                                                  : qsTr("Items (events, tuples) per second the sources send into the graph")
            HoverHandler { id: inputHover }
        }
        Text { visible: bar.run.running && !bar.run.followedFile.length; text: qsTr("engine CPU %1%").arg(bar.run.engineCpu.toFixed(0)); color: Theme.textDim; font.pixelSize: Theme.smallFontSize; font.family: Theme.monoFont }
        Text { visible: bar.run.running; text: bar.run.memoryMiB >= 1 ? bar.run.memoryMiB.toFixed(1) + " MiB" : (bar.run.memoryMiB * 1024).toFixed(0) + " KiB"; color: Theme.textDim; font.pixelSize: Theme.smallFontSize; font.family: Theme.monoFont }
        Text {
            visible: bar.run.restartNeeded
            text: qsTr("changed since start: restart to apply")
            color: Theme.warning
            font.pixelSize: Theme.smallFontSize
        }
        Item { Layout.fillWidth: true }
        Text {  // the Problems tab's own count, word for word
            objectName: "problemSummary"
            readonly property int errors: bar.document.problems.errorCount
            readonly property int warnings: bar.document.problems.warningCount
            text: errors > 0 ? bar.document.problems.summary : warnings > 0 ? qsTr("valid, %1").arg(bar.document.problems.summary) : qsTr("valid")
            color: errors > 0 ? Theme.error : warnings > 0 ? Theme.warning : Theme.success
            font.pixelSize: Theme.smallFontSize
        }
        Text { text: qsTr("%1 nodes").arg(bar.document.nodeCount); color: Theme.textDim; font.pixelSize: Theme.smallFontSize }
        Text { text: Math.round(bar.zoom * 100) + "%"; color: Theme.textDim; font.pixelSize: Theme.smallFontSize; font.family: Theme.monoFont }
    }
}
