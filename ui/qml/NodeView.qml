// One node on the canvas: title bar with status badge (and, while running and after, the skew between a
// multi-input node's inputs), typed port rows, selection outline.
// Dragging the body moves the selection; dragging a port draws a wire (see GraphCanvas). A node with a
// partition (the rank that runs it under mpirun) is edged in the partition's colour with a "rank k" pill.
import QtQuick
import QtQuick.Controls
import Isochron.Ui

Item {
    id: node
    required property string nodeId
    required property string typeName
    required property string category
    required property string summary
    required property real posX
    required property real posY
    required property real boxWidth
    required property real boxHeight
    required property var inputs
    required property var outputs
    required property var problems
    required property string status
    required property string statusText
    required property string skewText
    required property bool selected
    required property string comment
    required property bool known
    required property int partition
    property Item host

    x: posX
    y: posY
    width: boxWidth
    height: boxHeight

    Rectangle {  // soft shadow
        x: 1; y: 3
        width: parent.width; height: parent.height
        radius: 7
        color: Theme.shadow
    }
    Rectangle {
        id: frame
        anchors.fill: parent
        radius: 7
        color: Theme.nodeBody
        border.width: node.selected || node.partition >= 0 ? 2 : 1
        border.color: node.selected ? Theme.selection
                      : node.status === "error" ? Qt.rgba(0.94, 0.27, 0.27, 0.8)
                      : node.partition >= 0 ? Theme.partitionColor(node.partition) : Theme.nodeBorder
    }
    Rectangle {  // title bar
        x: 1; y: 1
        width: parent.width - 2
        height: 29
        radius: 6
        color: Theme.nodeHeader
        Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 6; color: parent.color }
        Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.nodeBorder }
        Rectangle {
            x: 8; anchors.verticalCenter: parent.verticalCenter
            width: 4; height: 14; radius: 2
            color: Theme.categoryColor(node.category)
        }
        Text {
            x: 18; anchors.verticalCenter: parent.verticalCenter
            width: parent.width - 44 - (skewPill.visible ? skewPill.width + 4 : 0) - (partitionPill.visible ? partitionPill.width + 4 : 0)
            text: node.nodeId
            font.pixelSize: Theme.fontSize
            font.bold: true
            color: Theme.text
            elide: Text.ElideRight
        }
        Rectangle {  // the partition: which rank runs the node under mpirun
            id: partitionPill
            objectName: "partitionPill"
            visible: node.partition >= 0
            anchors.right: skewPill.visible ? skewPill.left : badge.left; anchors.rightMargin: 5
            anchors.verticalCenter: parent.verticalCenter
            width: partitionLabel.implicitWidth + 10
            height: 16
            radius: 8
            color: Theme.partitionColor(node.partition)
            Text {
                id: partitionLabel
                anchors.centerIn: parent
                text: qsTr("rank %1").arg(node.partition)
                font.pixelSize: 9
                font.bold: true
                color: "white"
            }
        }
        Rectangle {  // skew between the inputs while running
            id: skewPill
            objectName: "skewPill"
            visible: node.skewText.length > 0
            anchors.right: badge.left; anchors.rightMargin: 5
            anchors.verticalCenter: parent.verticalCenter
            width: skewLabel.implicitWidth + 10
            height: 16
            radius: 8
            color: Theme.panel
            border.color: Theme.border
            opacity: node.host && node.host.liveValuesFinal ? 0.6 : 1  // dimmed: the last run's final value
            Text {
                id: skewLabel
                anchors.centerIn: parent
                text: node.skewText
                font.pixelSize: 9
                font.family: Theme.monoFont
                font.italic: node.host ? node.host.liveValuesFinal : false
                color: Theme.textDim
            }
            MouseArea {
                id: skewHover
                anchors.fill: parent
                hoverEnabled: true
                acceptedButtons: Qt.NoButton
            }
            ToolTip.visible: skewHover.containsMouse
            ToolTip.delay: 500
            ToolTip.text: qsTr("skew: spread of the inputs' watermarks (the most advanced input's minus the least advanced's).")
                          + (node.host && node.host.liveValuesFinal ? "\n" + qsTr("Final value of the last run.") : "")
        }
        Rectangle {  // status badge
            id: badge
            anchors.right: parent.right; anchors.rightMargin: 9
            anchors.verticalCenter: parent.verticalCenter
            width: 10; height: 10; radius: 5
            visible: node.status.length > 0
            color: Theme.statusColor(node.status)
            MouseArea {
                id: badgeHover
                anchors.fill: parent; anchors.margins: -4
                hoverEnabled: true
                acceptedButtons: Qt.NoButton
            }
            ToolTip.visible: badgeHover.containsMouse
            ToolTip.text: node.status + (node.statusText.length ? ": " + node.statusText : "")
                          + (node.problems.length > 1 ? "\n" + node.problems.join("\n") : "")
        }
    }
    Text {  // a note above the node
        visible: node.comment.length > 0
        anchors.bottom: parent.top; anchors.bottomMargin: 4
        width: parent.width
        text: node.comment
        wrapMode: Text.WordWrap
        maximumLineCount: 3
        elide: Text.ElideRight
        font.pixelSize: Theme.smallFontSize
        font.italic: true
        color: Theme.textDim
    }

    MouseArea {  // body: select and move
        id: body
        anchors.fill: parent
        acceptedButtons: Qt.LeftButton | Qt.RightButton
        hoverEnabled: true
        property point pressAt
        property bool moved: false
        onPressed: (mouse) => {
            host.forceActiveFocus()
            const additive = (mouse.modifiers & (Qt.ShiftModifier | Qt.ControlModifier)) !== 0
            if (!node.selected || additive) host.document.selection.selectNode(node.nodeId, additive)
            pressAt = mapToItem(host.world, mouse.x, mouse.y)
            moved = false
            if (mouse.button === Qt.LeftButton) host.document.beginMove()
        }
        onPositionChanged: (mouse) => {
            if (!pressed || !(mouse.buttons & Qt.LeftButton)) return
            const here = mapToItem(host.world, mouse.x, mouse.y)
            moved = true
            host.document.dragSelection(here.x - pressAt.x, here.y - pressAt.y)
        }
        onReleased: (mouse) => {
            if (mouse.button === Qt.LeftButton) host.document.endMove(host.snapToGrid ? Theme.gridStep : 0)
            if (mouse.button === Qt.RightButton) host.openNodeMenu(node.nodeId, mapToItem(host, mouse.x, mouse.y))
        }
        onDoubleClicked: (mouse) => { if (mouse.button === Qt.LeftButton) host.nodeActivated(node.nodeId) }
    }
    ToolTip.visible: body.containsMouse && !body.pressed && node.summary.length > 0 && !badgeHover.containsMouse && !skewHover.containsMouse
    ToolTip.delay: 900
    ToolTip.text: node.typeName + " — " + node.summary

    Repeater {
        model: node.inputs
        delegate: PortRow {
            required property var modelData
            port: modelData
            output: false
            nodeId: node.nodeId
            host: node.host
            width: node.width
            y: modelData.offsetY - height / 2
        }
    }
    Repeater {
        model: node.outputs
        delegate: PortRow {
            required property var modelData
            port: modelData
            output: true
            nodeId: node.nodeId
            host: node.host
            width: node.width
            y: modelData.offsetY - height / 2
        }
    }
}
