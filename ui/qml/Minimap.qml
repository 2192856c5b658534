// The whole graph in miniature with the visible part outlined; click or drag to move the view.
import QtQuick
import Isochron.Ui

Rectangle {
    id: minimap
    property Item canvas
    readonly property var box: {
        canvas.document.revision
        const b = canvas.document.nodes.bounds([])
        const pad = 40
        return {x: b.x - pad, y: b.y - pad, width: Math.max(b.width, 200) + 2 * pad, height: Math.max(b.height, 120) + 2 * pad}
    }
    readonly property real ratio: Math.min((width - 8) / box.width, (height - 8) / box.height)
    width: 168
    height: 104
    radius: 6
    color: Theme.panel
    border.color: Theme.border

    Item {
        id: content
        x: 4 + ((parent.width - 8) - minimap.box.width * minimap.ratio) / 2
        y: 4 + ((parent.height - 8) - minimap.box.height * minimap.ratio) / 2
        Repeater {
            model: minimap.canvas.document.nodes
            delegate: Rectangle {
                required property real posX
                required property real posY
                required property real boxWidth
                required property real boxHeight
                required property string category
                required property bool selected
                x: (posX - minimap.box.x) * minimap.ratio
                y: (posY - minimap.box.y) * minimap.ratio
                width: Math.max(2, boxWidth * minimap.ratio)
                height: Math.max(2, boxHeight * minimap.ratio)
                radius: 1
                color: selected ? Theme.selection : Theme.categoryColor(category)
                opacity: 0.8
            }
        }
        Rectangle {  // the view
            readonly property point topLeft: minimap.canvas.toCanvas(0, 0)
            x: (topLeft.x - minimap.box.x) * minimap.ratio
            y: (topLeft.y - minimap.box.y) * minimap.ratio
            width: minimap.canvas.width / minimap.canvas.zoom * minimap.ratio
            height: minimap.canvas.height / minimap.canvas.zoom * minimap.ratio
            color: Qt.rgba(0.23, 0.51, 0.96, 0.08)
            border.color: Theme.accent
            border.width: 1
        }
    }
    MouseArea {
        anchors.fill: parent
        function centreAt(mx, my) {
            const cx = (mx - content.x) / minimap.ratio + minimap.box.x
            const cy = (my - content.y) / minimap.ratio + minimap.box.y
            minimap.canvas.panX = minimap.canvas.width / 2 - cx * minimap.canvas.zoom
            minimap.canvas.panY = minimap.canvas.height / 2 - cy * minimap.canvas.zoom
        }
        onPressed: (mouse) => centreAt(mouse.x, mouse.y)
        onPositionChanged: (mouse) => { if (pressed) centreAt(mouse.x, mouse.y) }
    }
}
