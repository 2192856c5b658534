// Every problem the engine's validator finds in the graph, the warnings isochron-run --check gives
// (a run that can never end), then the faults of the last run's nodes and plugins whose new build
// was refused, and recordings whole only with their write-ahead log (until it is folded in, or
// dismissed); clicking one selects and centres its node.
import QtQuick
import QtQuick.Controls
import Isochron.Ui

Rectangle {
    id: panel
    property GraphDocument document
    property RunController run  // dismisses the data-at-risk rows
    signal problemActivated(string nodeId)
    color: Theme.panel

    ListView {
        id: list
        anchors.fill: parent
        clip: true
        model: panel.document.problems
        ScrollBar.vertical: ScrollBar {}
        delegate: Rectangle {
            required property int index
            required property string node
            required property string text
            required property string message
            required property string source
            required property string severity
            width: ListView.view.width
            height: 30
            color: hover.containsMouse ? Theme.hover : (index % 2 ? Theme.panelAlt : Theme.panel)
            Row {
                x: 10; anchors.verticalCenter: parent.verticalCenter
                spacing: 8
                Icon {
                    name: parent.parent.severity
                    size: 15
                    color: parent.parent.severity === "warning" ? Theme.warning : Theme.error
                    anchors.verticalCenter: parent.verticalCenter
                }
                Text {
                    text: parent.parent.node.length ? parent.parent.node : parent.parent.source === "plugins" ? qsTr("plugin") : qsTr("graph")
                    font.pixelSize: Theme.fontSize; font.bold: true; color: Theme.text
                    anchors.verticalCenter: parent.verticalCenter
                }
                Text {
                    id: problemText
                    // Long messages (a loop's warning names its nodes and the way out) end in "…" and
                    // show whole in the tooltip.
                    width: Math.max(0, parent.parent.width - parent.x - x - 10 - (dismiss.visible ? dismiss.width + 10 : 0))
                    elide: Text.ElideRight
                    text: parent.parent.text
                    font.pixelSize: Theme.fontSize; color: Theme.textDim
                    anchors.verticalCenter: parent.verticalCenter
                }
            }
            MouseArea {
                id: hover
                anchors.fill: parent
                hoverEnabled: true
                onClicked: if (node.length) panel.problemActivated(node)
                ToolTip.visible: containsMouse && problemText.truncated
                ToolTip.text: problemText.text
                ToolTip.delay: 500
            }
            Button {  // a recording whole only with its log: the user may say they took care of it
                id: dismiss
                objectName: "dismissProblem"
                visible: parent.source === "data at risk" && panel.run !== null
                anchors.right: parent.right; anchors.rightMargin: 8
                anchors.verticalCenter: parent.verticalCenter
                text: qsTr("Dismiss")
                font.pixelSize: Theme.smallFontSize
                onClicked: panel.run.dismissDataAtRisk(parent.node)
            }
        }
    }
    Text {
        visible: list.count === 0
        anchors.centerIn: parent
        text: qsTr("No problems: the graph is ready to run.")
        color: Theme.textDim
        font.pixelSize: Theme.fontSize
    }
}
