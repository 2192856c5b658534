// One port of a node: a dot in the type's colour on the node's edge and the port's name. Pressing
// the dot starts a wire (or picks up the wire feeding a connected input, to reroute or remove it).
import QtQuick
import QtQuick.Controls
import Isochron.Ui

Item {
    id: row
    property var port
    property bool output
    property string nodeId
    property Item host
    height: 22

    Text {
        anchors.verticalCenter: parent.verticalCenter
        x: row.output ? 0 : 13
        width: parent.width - 26
        horizontalAlignment: row.output ? Text.AlignRight : Text.AlignLeft
        leftPadding: row.output ? 13 : 0
        text: row.port.name + (row.port.optional ? "?" : "")
        font.pixelSize: Theme.smallFontSize
        color: row.port.concrete || row.output ? Theme.text : Theme.textDim
        elide: Text.ElideRight
    }
    Rectangle {
        id: dot
        x: (row.output ? row.width : 0) - width / 2
        anchors.verticalCenter: parent.verticalCenter
        width: hit.containsMouse ? 13 : 11
        height: width
        radius: width / 2
        color: row.port.connected ? row.port.color : Theme.nodeBody
        border.width: 2
        border.color: row.port.color
        Behavior on width { NumberAnimation { duration: 80 } }
    }
    MouseArea {
        id: hit
        x: (row.output ? row.width : 0) - 11
        width: 22
        height: parent.height
        hoverEnabled: true
        preventStealing: true
        onPressed: (mouse) => {
            const at = mapToItem(host.world, mouse.x, mouse.y)
            host.beginWire(row.nodeId, row.port.name, row.output, at.x, at.y)
        }
        onPositionChanged: (mouse) => {
            if (pressed) {
                const at = mapToItem(host.world, mouse.x, mouse.y)
                host.dragWire(at.x, at.y)
            }
        }
        onReleased: (mouse) => {
            const at = mapToItem(host.world, mouse.x, mouse.y)
            host.finishWire(at.x, at.y)
        }
    }
    Loader {  // made while the pointer is on the port: a large graph has thousands of ports
        active: hit.containsMouse
        sourceComponent: Item {
            ToolTip {  // beside the port, outside the node, so it never covers the node's title
                parent: hit
                visible: hit.containsMouse && !hit.pressed && !row.host.wireStart
                delay: 500
                timeout: 5000
                x: row.output ? hit.width + 4 : -width - 4
                y: (hit.height - height) / 2
                text: row.port.name + ": " + row.port.type
                      + (row.port.doc.length ? "\n" + row.port.doc : "")
                      + (row.port.channels.length ? "\n" + qsTr("carries %1").arg(row.port.channels) : "")
                      + (row.port.optional ? "\n" + qsTr("(optional)") : "")
            }
        }
    }
}
