// A menu as wide as its widest item (Qt's stays 200 px and cuts off "Undo Connect a.out to b.in"),
// saying when it opens on UiLog.
import QtQuick
import QtQuick.Controls
import Isochron.Ui

Menu {
    id: menu
    readonly property string plainTitle: title.replace("&", "")
    width: {
        let widest = 200
        for (let i = 0; i < count; ++i) {
            const item = itemAt(i)
            if (item && item.visible) widest = Math.max(widest, item.implicitWidth)
        }
        return Math.min(widest, 640) + leftPadding + rightPadding
    }
    onOpened: UiLog.info("menu opened: " + plainTitle)
    onClosed: UiLog.info("menu closed: " + plainTitle)
}
