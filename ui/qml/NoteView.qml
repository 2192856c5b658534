// A note on the canvas: drag it by its body, resize it from the corner, double-click to edit its
// text; the × removes it. Saved in the graph file, every change undoable.
import QtQuick
import QtQuick.Controls

Rectangle {
    id: note
    required property int index
    required property var modelData
    property Item host
    property bool editing: false
    x: modelData.x
    y: modelData.y
    width: modelData.width
    height: modelData.height
    radius: 4
    color: Theme.dark ? "#3b3522" : "#fff7d6"
    border.color: Theme.dark ? "#6b5d2f" : "#eedc98"

    MouseArea {
        id: body
        anchors.fill: parent
        hoverEnabled: true
        property point pressAt
        property point startAt
        onPressed: (mouse) => {
            host.forceActiveFocus()
            pressAt = mapToItem(host.world, mouse.x, mouse.y)
            startAt = Qt.point(note.x, note.y)
        }
        onPositionChanged: (mouse) => {
            if (!pressed) return
            const here = mapToItem(host.world, mouse.x, mouse.y)
            note.x = startAt.x + here.x - pressAt.x
            note.y = startAt.y + here.y - pressAt.y
        }
        onReleased: {
            if (note.x !== startAt.x || note.y !== startAt.y)
                host.document.editNote(note.index, {x: host.snapped(note.x), y: host.snapped(note.y)})
        }
        onDoubleClicked: { note.editing = true; editor.forceActiveFocus() }
    }
    Text {
        visible: !note.editing
        anchors.fill: parent
        anchors.margins: 8
        text: note.modelData.text.length ? note.modelData.text : qsTr("Double-click to write a note")
        wrapMode: Text.WordWrap
        elide: Text.ElideRight
        color: note.modelData.text.length ? Theme.text : Theme.textFaint
        font.pixelSize: Theme.fontSize
    }
    TextArea {
        id: editor
        visible: note.editing
        anchors.fill: parent
        anchors.margins: 2
        text: note.modelData.text
        wrapMode: TextArea.Wrap
        background: null
        color: Theme.text
        font.pixelSize: Theme.fontSize
        onActiveFocusChanged: {
            if (activeFocus) return
            note.editing = false
            if (text !== note.modelData.text) host.document.editNote(note.index, {text: text})
        }
        Keys.onEscapePressed: host.forceActiveFocus()
    }
    Text {  // remove
        visible: body.containsMouse && !note.editing
        anchors.right: parent.right; anchors.top: parent.top; anchors.margins: 3
        text: "×"
        font.pixelSize: 14
        color: Theme.textDim
        MouseArea { anchors.fill: parent; anchors.margins: -3; onClicked: host.document.removeNote(note.index) }
    }
    Rectangle {  // resize
        anchors.right: parent.right; anchors.bottom: parent.bottom
        width: 10; height: 10
        color: "transparent"
        visible: body.containsMouse || resize.pressed
        Text { anchors.centerIn: parent; text: "◢"; font.pixelSize: 9; color: Theme.textFaint }
        MouseArea {
            id: resize
            anchors.fill: parent
            anchors.margins: -4
            property point pressAt
            property size startSize
            onPressed: (mouse) => {
                pressAt = mapToItem(host.world, mouse.x, mouse.y)
                startSize = Qt.size(note.width, note.height)
            }
            onPositionChanged: (mouse) => {
                if (!pressed) return
                const here = mapToItem(host.world, mouse.x, mouse.y)
                note.width = Math.max(80, startSize.width + here.x - pressAt.x)
                note.height = Math.max(40, startSize.height + here.y - pressAt.y)
            }
            onReleased: host.document.editNote(note.index, {width: note.width, height: note.height})
        }
    }
}
