#include "ui/menus/menu_bar_reset.h"

#include <QCoreApplication>
#include <QKeyEvent>
#include <QPointer>
#include <QQuickItem>
#include <QQuickWindow>

namespace isochron::ui {

void MenuBarReset::leaveOpenMode(QQuickItem* menuBar) const {
    if (!menuBar) return;
    // The bar gives its title the focus as it leaves the mode: it goes back where it was.
    QPointer<QQuickItem> focused = menuBar->window() ? menuBar->window()->activeFocusItem() : nullptr;
    QKeyEvent up(QEvent::KeyPress, Qt::Key_Up, Qt::NoModifier);
    QCoreApplication::sendEvent(menuBar, &up);
    if (focused && !focused->hasActiveFocus()) focused->forceActiveFocus();
}

}  // namespace isochron::ui
