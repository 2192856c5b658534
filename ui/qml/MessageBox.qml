// A message in the window with a row of buttons: errors, "save your changes?", "replace the file?".
// Enter presses the default button, Escape the one whose role is "reject" (or closes), and a safe
// button's first letter (underlined) presses it. A destructive button ("Don't Save", "Replace") has no
// letter: a key typed for another window must never throw work away, so it takes a click (or Tab
// to it and Space). Says when it opens and closes on UiLog.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Dialog {
    id: box
    property string text
    property string informativeText
    /// [{text, role ("accept", "reject", "discard", ...), isDefault, destructive}]; the default is the
    /// first. A destructive button answers no letter key and should not be the default.
    property var buttons: [{text: qsTr("OK"), role: "accept", isDefault: true}]
    /// A button was pressed (the box closes first).
    signal chosen(string role)

    function choose(role) {
        close()
        chosen(role)
    }
    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    width: Math.min(540, parent ? parent.width - 80 : 540)
    closePolicy: Popup.CloseOnEscape
    padding: 18
    onOpened: { UiLog.info("dialog opened: " + title); content.forceActiveFocus() }
    onClosed: UiLog.info("dialog closed: " + title)

    background: Rectangle { color: Theme.panel; radius: 8; border.color: Theme.border }
    header: Text {
        visible: box.title.length > 0
        text: box.title
        padding: 18
        bottomPadding: 0
        font.pixelSize: Theme.fontSize + 3
        font.weight: Font.DemiBold
        color: Theme.text
    }
    contentItem: ColumnLayout {
        id: content
        spacing: 8
        focus: true
        Keys.onReturnPressed: box.choose((box.buttons.find(b => b.isDefault) || box.buttons[0]).role)
        Keys.onEnterPressed: box.choose((box.buttons.find(b => b.isDefault) || box.buttons[0]).role)
        Keys.onEscapePressed: box.choose(box.buttons.some(b => b.role === "reject") ? "reject" : box.buttons[box.buttons.length - 1].role)
        Keys.onPressed: (event) => {
            const letter = event.text.toLowerCase()
            const button = letter.length === 1 ? box.buttons.find(b => !b.destructive && b.text.toLowerCase().startsWith(letter)) : undefined
            if (button && event.modifiers === Qt.NoModifier) { box.choose(button.role); event.accepted = true }
        }
        Text {
            Layout.fillWidth: true
            text: box.text
            wrapMode: Text.WordWrap
            font.pixelSize: Theme.fontSize + 1
            color: Theme.text
        }
        Text {
            Layout.fillWidth: true
            visible: box.informativeText.length > 0
            text: box.informativeText
            wrapMode: Text.WordWrap
            font.pixelSize: Theme.fontSize
            color: Theme.textDim
        }
    }
    footer: RowLayout {
        spacing: 8
        Item { Layout.fillWidth: true; Layout.leftMargin: 18 }
        Repeater {
            model: box.buttons
            delegate: Button {
                required property var modelData
                Layout.bottomMargin: 14
                Layout.rightMargin: index === box.buttons.length - 1 ? 18 : 0
                required property int index
                objectName: "messageButton_" + modelData.role
                text: modelData.text
                highlighted: modelData.isDefault === true
                contentItem: Text {
                    text: modelData.destructive ? modelData.text : "<u>" + modelData.text.charAt(0) + "</u>" + modelData.text.substring(1)
                    textFormat: Text.StyledText
                    horizontalAlignment: Text.AlignHCenter
                    font.pixelSize: Theme.fontSize
                    color: parent.highlighted ? "white" : Theme.text
                }
                // Our own fill for the default button: the style's light-theme highlight is nearly white,
                // which left its white label unreadable.
                background: Rectangle {
                    implicitWidth: 88
                    implicitHeight: 32
                    radius: 4
                    color: parent.highlighted ? (parent.down ? Qt.darker(Theme.accent, 1.2) : Theme.accent)
                                              : (parent.down ? Theme.hover : Theme.panelAlt)
                    border.color: parent.highlighted ? Qt.darker(Theme.accent, 1.1) : Theme.border
                    border.width: parent.visualFocus ? 2 : 1
                }
                onClicked: box.choose(modelData.role)
            }
        }
    }
}
