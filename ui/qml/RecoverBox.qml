// At start: the graphs of editors that ended without saving (a crash, a kill), each to recover or
// discard; "Later" keeps them for the next start.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Dialog {
    id: box
    /// RecoveryStore.orphans(): [{id, file, name, savedAt, nodes}].
    property var orphans: []
    signal recoverRequested(var entry)
    signal discardRequested(var entry)

    function done(entry) {
        orphans = orphans.filter(o => o.id !== entry.id)
        if (orphans.length === 0) close()
    }
    objectName: "recoverBox"
    title: qsTr("Recover unsaved work")
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    width: Math.min(640, parent ? parent.width - 80 : 640)
    padding: 18
    closePolicy: Popup.CloseOnEscape
    onOpened: { UiLog.info("dialog opened: " + title + " (" + orphans.length + ")"); list.forceActiveFocus() }
    onClosed: UiLog.info("dialog closed: " + title)
    background: Rectangle { color: Theme.panel; radius: 8; border.color: Theme.border }
    header: Text {
        text: box.title
        padding: 18
        bottomPadding: 0
        font.pixelSize: Theme.fontSize + 3
        font.weight: Font.DemiBold
        color: Theme.text
    }
    contentItem: ColumnLayout {
        spacing: 10
        Text {
            Layout.fillWidth: true
            wrapMode: Text.WordWrap
            text: qsTr("The editor ended without saving these graphs. Recover opens each with its changes, unsaved until you save it.")
            font.pixelSize: Theme.fontSize
            color: Theme.textDim
        }
        ListView {
            id: list
            Layout.fillWidth: true
            Layout.preferredHeight: Math.min(contentHeight, 280)
            clip: true
            model: box.orphans
            // Enter recovers the first; Delete discards it.
            Keys.onReturnPressed: if (count) { box.recoverRequested(box.orphans[0]); box.done(box.orphans[0]) }
            Keys.onEnterPressed: if (count) { box.recoverRequested(box.orphans[0]); box.done(box.orphans[0]) }
            Keys.onDeletePressed: if (count) { box.discardRequested(box.orphans[0]); box.done(box.orphans[0]) }
            delegate: RowLayout {
                required property var modelData
                width: ListView.view.width
                spacing: 8
                Column {
                    Layout.fillWidth: true
                    Text {
                        width: parent.width
                        text: (modelData.name.length ? modelData.name + " — " : "") + (modelData.file.length ? modelData.file.substring(modelData.file.lastIndexOf("/") + 1) : qsTr("untitled"))
                        elide: Text.ElideRight
                        font.pixelSize: Theme.fontSize
                        font.weight: Font.DemiBold
                        color: Theme.text
                    }
                    Text {
                        width: parent.width
                        text: (modelData.nodes === 1 ? qsTr("1 node") : qsTr("%1 nodes").arg(modelData.nodes))
                              + qsTr(", saved %1").arg(new Date(modelData.savedAt).toLocaleString(Qt.locale(), Locale.ShortFormat))
                              + (modelData.file.length ? "  ·  " + modelData.file : "")
                        elide: Text.ElideMiddle
                        font.pixelSize: Theme.smallFontSize
                        color: Theme.textDim
                    }
                }
                Button { objectName: "recoverButton"; text: qsTr("Recover"); highlighted: true; onClicked: { box.recoverRequested(modelData); box.done(modelData) } }
                Button { objectName: "discardRecoveryButton"; text: qsTr("Discard"); onClicked: { box.discardRequested(modelData); box.done(modelData) } }
            }
        }
    }
    footer: RowLayout {
        Item { Layout.fillWidth: true }
        Button { Layout.margins: 14; text: qsTr("Later"); onClicked: box.close() }
    }
}
