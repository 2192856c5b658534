// Quick-add: a search box at the pointer; Enter adds the highlighted operator there.
import QtQuick
import QtQuick.Controls
import Isochron.Ui

Popup {
    id: popup
    property real canvasX
    property real canvasY
    signal chosen(string typeName, real canvasX, real canvasY)
    signal dismissed()
    function openAt(screenX, screenY, cx, cy) {
        canvasX = cx
        canvasY = cy
        x = Math.max(0, Math.min(parent.width - width, screenX))
        y = Math.max(0, Math.min(parent.height - height, screenY))
        field.text = ""
        results.currentIndex = 0
        open()
        field.forceActiveFocus()
    }
    function choose(row) {
        const type = catalog.typeAt(row)
        if (type.length === 0) return
        accepted = true
        close()
        chosen(type, canvasX, canvasY)
    }
    property bool accepted: false
    onOpened: { accepted = false; UiLog.info("quick-add opened") }
    onClosed: if (!accepted) dismissed()
    width: 320
    height: 300
    padding: 0
    modal: false
    focus: true
    closePolicy: Popup.CloseOnEscape | Popup.CloseOnPressOutside
    background: Rectangle { color: Theme.panel; radius: 8; border.color: Theme.border }

    OperatorCatalog { id: catalog; filter: field.text; ranked: true }
    Connections { target: PluginReloader; function onReloaded() { catalog.refresh() } }

    Column {
        anchors.fill: parent
        anchors.margins: 6
        spacing: 6
        TextField {
            id: field
            objectName: "quickAddField"
            width: parent.width
            placeholderText: qsTr("Add operator…")
            Keys.onDownPressed: results.incrementCurrentIndex()
            Keys.onUpPressed: results.decrementCurrentIndex()
            Keys.onReturnPressed: popup.choose(results.currentIndex)
            Keys.onEnterPressed: popup.choose(results.currentIndex)
            onTextChanged: results.currentIndex = 0
        }
        ListView {
            id: results
            width: parent.width
            height: parent.height - field.height - 6
            clip: true
            model: catalog
            highlightMoveDuration: 0
            delegate: Rectangle {
                required property int index
                required property string typeName
                required property string summary
                required property string category
                width: ListView.view.width
                height: 38
                radius: 4
                color: ListView.isCurrentItem ? Theme.accentSoft : (hover.containsMouse ? Theme.hover : "transparent")
                Rectangle { x: 8; width: 4; height: 18; radius: 2; anchors.verticalCenter: parent.verticalCenter; color: Theme.categoryColor(category) }
                Column {
                    x: 20; width: parent.width - 26
                    anchors.verticalCenter: parent.verticalCenter
                    Text { text: typeName; color: Theme.text; font.pixelSize: Theme.fontSize; width: parent.width; elide: Text.ElideRight }
                    Text { text: summary; color: Theme.textDim; font.pixelSize: Theme.smallFontSize - 1; width: parent.width; elide: Text.ElideRight }
                }
                MouseArea { id: hover; anchors.fill: parent; hoverEnabled: true; onClicked: popup.choose(index) }
            }
        }
    }
}
