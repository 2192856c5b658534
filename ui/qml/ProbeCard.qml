// One probe: a title bar (drag it to move a floating card; collapse, dock or float at its left end,
// remove alone at its right end, so a click meant for docking never removes it) over
// the probe kind's view (ScopeView, SpectrumView, ... loaded by name from probe_kinds.h). The
// wheel over a card stays with it, so it never zooms the canvas underneath.
import QtQuick
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: card
    /// RunController.probes[i]: {key, kind, kindLabel, view, label}.
    required property var probe
    property RunController run
    property bool docked: false
    property bool collapsed: false
    signal dockToggled()
    signal collapseToggled()
    /// The title bar is being dragged: where the card's top-left should go in its parent.
    signal dragged(real x, real y)
    readonly property real collapsedHeight: titleBar.height + 2
    objectName: "probeCard"
    width: 380
    height: collapsed ? collapsedHeight : 200
    radius: 8
    color: Theme.panel
    border.color: Theme.border
    clip: true

    WheelHandler { onWheel: (event) => event.accepted = true }

    Rectangle {
        id: titleBar
        width: parent.width
        height: 30
        radius: 8
        color: Theme.panelHeader
        MouseArea {  // drag a floating card by its title
            anchors.fill: parent
            enabled: !card.docked
            cursorShape: card.docked ? Qt.ArrowCursor : Qt.SizeAllCursor
            property point grab
            onPressed: (mouse) => grab = Qt.point(mouse.x, mouse.y)
            onPositionChanged: (mouse) => {
                if (!pressed) return
                const p = mapToItem(card.parent, mouse.x, mouse.y)
                card.dragged(p.x - grab.x, p.y - grab.y)
            }
            onDoubleClicked: card.collapseToggled()
        }
        RowLayout {
            anchors.fill: parent
            anchors.leftMargin: 4
            anchors.rightMargin: 4
            spacing: 2
            IconButton {
                objectName: "probeCollapse"
                iconName: card.collapsed ? "chevronRight" : "chevronDown"
                implicitWidth: 24; implicitHeight: 24
                tip: card.collapsed ? qsTr("Expand") : qsTr("Collapse")
                onClicked: card.collapseToggled()
            }
            IconButton {
                objectName: "probeDock"
                iconName: card.docked ? "undock" : "dock"
                implicitWidth: 24; implicitHeight: 24
                tip: card.docked ? qsTr("Float over the canvas") : qsTr("Dock in the Probes tab")
                onClicked: card.dockToggled()
            }
            Icon { name: "probe"; size: 15; color: ({spectrum: "#a855f7", waterfall: "#f67d15", level: "#22c55e"})[card.probe.kind] || Theme.accent }
            Text {
                Layout.fillWidth: true
                text: card.probe.kindLabel + " — " + card.probe.label
                font.pixelSize: Theme.smallFontSize
                font.weight: Font.DemiBold
                color: Theme.text
                elide: Text.ElideRight
            }
            IconButton {
                objectName: "probeRemove"
                iconName: "close"
                implicitWidth: 24; implicitHeight: 24
                tip: qsTr("Remove probe")
                onClicked: card.run.removeProbe(card.probe.key)
            }
        }
    }

    Loader {
        id: view
        visible: !card.collapsed
        anchors.fill: parent
        anchors.topMargin: titleBar.height + 2
        anchors.margins: 6
        source: card.probe.view + ".qml"
        onLoaded: item.probe = card.probe.key
    }
    Text {  // a view that cannot load says so instead of taking the editor down
        objectName: "probeViewError"
        visible: view.status === Loader.Error && !card.collapsed
        anchors.centerIn: view
        width: view.width - 20
        wrapMode: Text.WordWrap
        text: qsTr("The %1 view (%2.qml) could not be loaded.").arg(card.probe.kindLabel).arg(card.probe.view)
        font.pixelSize: Theme.smallFontSize
        color: Theme.error
    }
    Connections {  // said once per card, for tests
        target: view.item ? view.item.plot : null
        property bool said: false
        function onDataChanged() {
            if (said || !view.item.plot.hasData) return
            said = true
            UiLog.info("probe data: " + card.probe.kindLabel + " " + card.probe.label)
        }
    }
    Text {
        visible: view.status === Loader.Ready && !view.item.plot.hasData && !card.collapsed
        anchors.centerIn: view
        text: card.run.running ? qsTr("waiting for data…") : qsTr("shown while the graph runs (F5)")
        font.pixelSize: Theme.smallFontSize
        color: Theme.textDim
    }
}
