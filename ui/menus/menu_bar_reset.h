// Qt 6.4's MenuBar stays in "a menu is open" mode when a menu closes (Escape, a click outside)
// while the pointer rests on its title: the next click on that title only leaves the mode and
// a second click is needed to open the menu again (QQuickMenuBarPrivate::onMenuAboutToHide keeps
// the state of a hovered item). The menu bar's own Up key leaves that mode without opening
// anything, so sending it is the public way back to a state in which one click opens.
#pragma once

#include <QObject>
#include <QtQml/qqmlregistration.h>

class QQuickItem;

namespace isochron::ui {

/// Puts a MenuBar back into its closed state after one of its menus closed. [ui thread]
class MenuBarReset : public QObject {
    Q_OBJECT
    QML_ELEMENT
    QML_SINGLETON
public:
    using QObject::QObject;
    /// Leave the menu bar's open-menu mode, keeping the keyboard focus where it is. Call when a
    /// menu closed while its title stays highlighted (the pointer on it); harmless otherwise.
    Q_INVOKABLE void leaveOpenMode(QQuickItem* menuBar) const;
};

}  // namespace isochron::ui
