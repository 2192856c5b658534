// A menu as wide as its widest item (Qt's stays 200 px and cuts off "Undo Connect a.out to b.in"),
// saying when it opens on UiLog. In the menu bar, closing it (Escape, a click elsewhere) with the
// pointer on its title leaves the bar ready to open a menu with one click (MenuBarReset).
import QtQuick
import QtQuick.Controls
import Isochron.Ui

Menu {
    id: menu
    readonly property string plainTitle: title.replace("&", "")
    /// The menu bar's title item showing this menu, or null (a submenu, a context menu).
    readonly property Item barTitle: parent && parent.menuBar !== undefined && parent.menu === menu ? parent : null
    width: {
        let widest = 200
        for (let i = 0; i < count; ++i) {
            const item = itemAt(i)
            if (item && item.visible) widest = Math.max(widest, item.implicitWidth)
        }
        return Math.min(widest, 640) + leftPadding + rightPadding
    }
    onOpened: UiLog.info("menu opened: " + plainTitle)
    onClosed: {
        UiLog.info("menu closed: " + plainTitle)
        if (barTitle && barTitle.menuBar && barTitle.highlighted && barTitle.hovered) MenuBarReset.leaveOpenMode(barTitle.menuBar)
    }
}
