// The palette: every operator by category, with search-as-you-type, each one's summary and, for a
// plugin's operators, the plugin's file (the tooltip says "built-in" for the others). Drag an
// operator onto the canvas, or double-click it to add it in the middle of the view.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: palette
    signal addRequested(string typeName)
    property alias searchField: search
    color: Theme.panel

    OperatorCatalog { id: catalog; filter: search.text }
    Connections { target: PluginReloader; function onReloaded() { catalog.refresh() } }

    ColumnLayout {
        anchors.fill: parent
        spacing: 0
        PanelHeader { title: qsTr("Operators"); Layout.fillWidth: true }
        TextField {
            id: search
            objectName: "paletteSearch"
            Layout.fillWidth: true
            Layout.margins: 8
            placeholderText: qsTr("Search: words, frame, in:signal, out:event…")
            leftPadding: 30
            Icon { name: "search"; size: 15; color: Theme.textFaint; x: 9; anchors.verticalCenter: parent.verticalCenter }
            Keys.onReturnPressed: if (catalog.count > 0) palette.addRequested(catalog.typeAt(list.currentIndex >= 0 ? list.currentIndex : 0))
            Keys.onDownPressed: list.incrementCurrentIndex()
            Keys.onUpPressed: list.decrementCurrentIndex()
        }
        ListView {
            id: list
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            model: catalog
            currentIndex: -1
            boundsBehavior: Flickable.StopAtBounds
            ScrollBar.vertical: ScrollBar {}
            section.property: "category"
            section.delegate: Rectangle {
                required property string section
                width: ListView.view.width
                height: 28
                color: Theme.panel
                Row {
                    x: 12; anchors.verticalCenter: parent.verticalCenter
                    spacing: 7
                    Rectangle { width: 8; height: 8; radius: 2; color: Theme.categoryColor(section); anchors.verticalCenter: parent.verticalCenter }
                    Text { text: section.toUpperCase(); font.pixelSize: 10; font.bold: true; font.letterSpacing: 0.8; color: Theme.textDim }
                }
            }
            delegate: Item {
                id: entry
                required property int index
                required property string typeName
                required property string name
                required property string category
                required property string summary
                required property string documentation
                required property string ports
                required property string origin
                required property string originName
                readonly property bool fromPlugin: origin !== "built-in"
                width: ListView.view.width
                height: 46
                Rectangle {
                    anchors.fill: parent
                    anchors.leftMargin: 6; anchors.rightMargin: 6
                    radius: 5
                    color: list.currentIndex === entry.index ? Theme.accentSoft : (mouse.containsMouse ? Theme.hover : "transparent")
                }
                Column {
                    x: 14; width: parent.width - 24
                    anchors.verticalCenter: parent.verticalCenter
                    spacing: 2
                    Row {
                        width: parent.width
                        spacing: 6
                        Text {
                            text: entry.name; font.pixelSize: Theme.fontSize; font.weight: Font.DemiBold; color: Theme.text; elide: Text.ElideRight
                            width: Math.min(implicitWidth, parent.width - (originTag.visible ? originTag.width + parent.spacing : 0))
                        }
                        Rectangle {  // which plugin it comes from
                            id: originTag
                            objectName: "paletteOrigin"
                            visible: entry.fromPlugin
                            width: Math.min(originLabel.implicitWidth + 8, parent.width / 2)
                            height: originLabel.implicitHeight + 2
                            radius: 3
                            color: Theme.panelAlt
                            border.color: Theme.border
                            anchors.verticalCenter: parent.verticalCenter
                            Text {
                                id: originLabel
                                anchors.centerIn: parent
                                width: parent.width - 8
                                horizontalAlignment: Text.AlignHCenter
                                text: entry.originName; font.pixelSize: Theme.smallFontSize - 1; color: Theme.textDim; elide: Text.ElideMiddle
                            }
                        }
                    }
                    Text { text: entry.summary; font.pixelSize: Theme.smallFontSize; color: Theme.textDim; width: parent.width; elide: Text.ElideRight }
                }
                MouseArea {
                    id: mouse
                    anchors.fill: parent
                    hoverEnabled: true
                    drag.target: ghost
                    onPressed: {
                        list.currentIndex = entry.index
                        ghost.typeName = entry.typeName
                        ghost.label = entry.name
                        const p = mapToItem(ghost.parent, mouseX, mouseY)
                        ghost.x = p.x - ghost.width / 2
                        ghost.y = p.y - ghost.height / 2
                    }
                    onDoubleClicked: palette.addRequested(entry.typeName)
                }
                Connections {
                    target: mouse.drag
                    function onActiveChanged() {
                        if (mouse.drag.active) {
                            ghost.Drag.active = true
                        } else {
                            ghost.Drag.drop()
                            ghost.Drag.active = false
                        }
                    }
                }
                ToolTip.visible: mouse.containsMouse && !mouse.pressed
                ToolTip.delay: 700
                ToolTip.text: entry.typeName + "\n" + entry.summary + "\n" + entry.ports
                              + "\n" + (entry.fromPlugin ? qsTr("plugin: %1").arg(entry.origin) : qsTr("built-in"))
                              + (entry.documentation.length ? "\n\n" + entry.documentation : "")
            }
        }
    }

    Rectangle {  // what is being dragged to the canvas
        id: ghost
        property string typeName
        property string label
        parent: Overlay.overlay
        visible: Drag.active
        width: 184; height: 34; radius: 7
        color: Theme.nodeBody
        border.color: Theme.accent
        opacity: 0.9
        Drag.keys: ["isochron/operator"]
        Drag.hotSpot.x: width / 2
        Drag.hotSpot.y: height / 2
        Text { anchors.centerIn: parent; text: ghost.label; color: Theme.text; font.pixelSize: Theme.fontSize; font.bold: true }
    }
}
