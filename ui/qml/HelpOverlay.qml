// Every keyboard shortcut and pointer gesture on one sheet (F1 or ?).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Popup {
    id: help
    modal: true
    focus: true  // so Escape reaches it
    closePolicy: Popup.CloseOnEscape | Popup.CloseOnPressOutside
    objectName: "helpOverlay"
    onOpened: UiLog.info("dialog opened: Keyboard and mouse")
    onClosed: UiLog.info("dialog closed: Keyboard and mouse")
    anchors.centerIn: Overlay.overlay
    width: Math.min(parent.width - 80, 780)
    height: Math.min(parent.height - 80, 560)
    padding: 20
    background: Rectangle { color: Theme.panel; radius: 10; border.color: Theme.border }

    readonly property var groups: [
        {title: qsTr("Canvas"), items: [
            ["Wheel / Ctrl+Wheel", qsTr("zoom at the pointer")],
            ["Middle or right drag, Alt+drag, Space+drag", qsTr("pan")],
            ["Arrows", qsTr("pan, or move the selection (Shift: 5 grid steps)")],
            ["F", qsTr("fit the graph (Shift+F: the selection)")],
            ["Ctrl++ / Ctrl+- / Ctrl+0", qsTr("zoom in, out, 100%")],
            ["Double-click, Tab", qsTr("quick-add an operator here")],
            ["Right click", qsTr("add an operator or a note, paste, fit, lay out")],
            ["N", qsTr("a note in the middle of the view (double-click it to write)")],
            ["Drag on empty canvas", qsTr("rubber-band select (Shift/Ctrl adds)")],
            ["Drag from a port", qsTr("wire; drop on a node to use its first fitting input")],
            ["Drag a wire's input end", qsTr("reroute it; drop on nothing to delete it")],
            ["Right click a wire", qsTr("probe it (the probes that can show its type), record it or delete it")],
            ["Ctrl+R", qsTr("record the selected wire into the graph's archive (again: stop recording)")],
            ["Ctrl+Shift+P", qsTr("replay the interval chosen on an Archive tab lane through the graph")],
            ["Ctrl+Shift+L", qsTr("show the localization events of the interval chosen on an Archive tab event lane")]]},
        {title: qsTr("Archive tab"), items: [
            ["Click the ruler or a lane", qsTr("put the playhead (its time in seconds and UTC below the lanes)")],
            ["Drag the playhead", qsTr("scrub: play short grains of the audio under it; hold still to play from there")],
            ["Space", qsTr("play from the playhead, or stop")],
            ["Left / Right", qsTr("nudge the playhead a hundredth of the view (Shift: pan a quarter)")],
            ["Wheel, + / −, F, Z", qsTr("zoom at the pointer, in / out, whole archive, chosen interval")],
            ["Drag across a lane", qsTr("choose an interval to replay (Ctrl+Shift+P)")]]},
        {title: qsTr("Probes"), items: [
            ["Drag a probe's title", qsTr("move it over the canvas")],
            ["▾ / double-click the title", qsTr("collapse or expand it")],
            ["▭ button", qsTr("dock it in the Probes tab below (and float it back)")],
            ["Point at the plot", qsTr("read the value under the pointer; a spectrum marks its peak")],
            [qsTr("Adding or removing one"), qsTr("never restarts the run")]]},
        {title: qsTr("Editing"), items: [
            ["Ctrl+Z / Ctrl+Shift+Z (Ctrl+Y)", qsTr("undo / redo")],
            ["Ctrl+C / Ctrl+X / Ctrl+V", qsTr("copy, cut, paste (between windows too)")],
            ["Ctrl+D", qsTr("duplicate")],
            ["Delete / Backspace", qsTr("delete the selection")],
            ["Ctrl+A", qsTr("select all")],
            ["Ctrl+L", qsTr("auto-layout (selection or whole graph)")],
            ["Ctrl+G", qsTr("group the selection into a subgraph file")],
            ["Ctrl+Shift+G", qsTr("ungroup the selected subgraph node")],
            ["Alt+0 … Alt+9 / Alt+−", qsTr("run the selection on that rank under mpirun (its partition) / on none")],
            ["Double-click a subgraph node", qsTr("open its file in a new window")],
            ["G", qsTr("snap to grid on/off")]]},
        {title: qsTr("Files and running"), items: [
            ["Ctrl+N / Ctrl+O / Ctrl+S / Ctrl+Shift+S", qsTr("new, open, save, save as")],
            [qsTr("In a file dialog"), qsTr("type a name, a path (/…, ~/…) or a folder to go to; Enter opens or saves")],
            [qsTr("Unsaved work"), qsTr("kept in a recovery file every few seconds; offered back after a crash")],
            ["Ctrl+Q", qsTr("quit (asks about unsaved changes)")],
            ["Ctrl+Shift+N", qsTr("new window")],
            ["F5 / Shift+F5 / Ctrl+F5", qsTr("run / stop / restart")],
            ["F6", qsTr("compare schedulers")],
            ["Ctrl+Shift+R", qsTr("reload plugins (also automatic when a plugin file changes)")],
            ["Ctrl+K", qsTr("search the palette")],
            ["F1 or ?", qsTr("this sheet (Esc closes it, and any dialog)")]]}
    ]

    ColumnLayout {
        anchors.fill: parent
        spacing: 12
        RowLayout {
            Layout.fillWidth: true
            Text { text: qsTr("Keyboard and mouse"); font.pixelSize: 18; font.bold: true; color: Theme.text }
            Item { Layout.fillWidth: true }
            IconButton { iconName: "close"; tip: qsTr("Close (Esc)"); onClicked: help.close() }
        }
        ScrollView {
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            contentWidth: availableWidth
            ColumnLayout {
                width: parent.width
                spacing: 14
                Repeater {
                    model: help.groups
                    delegate: ColumnLayout {
                        required property var modelData
                        Layout.fillWidth: true
                        spacing: 4
                        SectionLabel { text: modelData.title }
                        Repeater {
                            model: modelData.items
                            delegate: RowLayout {
                                required property var modelData
                                Layout.fillWidth: true
                                spacing: 16
                                Rectangle {
                                    Layout.preferredWidth: 270
                                    implicitHeight: keys.implicitHeight + 6
                                    radius: 4
                                    color: Theme.panelAlt
                                    border.color: Theme.border
                                    Text {  // wraps rather than running into the description
                                        id: keys
                                        x: 8
                                        width: parent.width - 16
                                        anchors.verticalCenter: parent.verticalCenter
                                        text: modelData[0]
                                        wrapMode: Text.Wrap
                                        font.family: Theme.monoFont
                                        font.pixelSize: Theme.smallFontSize
                                        color: Theme.text
                                    }
                                }
                                Text { Layout.fillWidth: true; text: modelData[1]; color: Theme.textDim; font.pixelSize: Theme.fontSize; wrapMode: Text.WordWrap }
                            }
                        }
                    }
                }
            }
        }
    }
}
