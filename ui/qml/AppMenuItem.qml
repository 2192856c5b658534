// A menu item that shows its action's shortcut at the right (Qt's Fusion items do not). An item that
// cannot do its work here but explains why when chosen is `unavailable`: drawn like a disabled one.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

MenuItem {
    id: item
    property bool unavailable: false
    readonly property string shortcutText: action && action.shortcut ? String(action.shortcut) : ""
    rightPadding: subMenu ? 30 : 12
    contentItem: RowLayout {
        spacing: 28
        Text {
            Layout.fillWidth: true
            Layout.leftMargin: item.checkable && item.indicator ? item.indicator.width + item.spacing : 0
            text: item.text.replace("&", "")
            elide: Text.ElideMiddle
            font: item.font
            color: !item.enabled || item.unavailable ? Theme.textFaint : item.highlighted ? "white" : Theme.text
        }
        Text {
            visible: item.shortcutText.length > 0
            text: item.shortcutText
            font.pixelSize: item.font.pixelSize - 1
            color: !item.enabled || item.unavailable ? Theme.textFaint : item.highlighted ? "white" : Theme.textDim
        }
    }
}
