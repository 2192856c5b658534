// The editor window: menus and toolbar, palette | canvas with plots, problems and comparison below
// | inspector, status bar. Opens `initialGraph` when given; asks before losing unsaved changes.
import QtQuick
import QtQuick.Controls
import QtQuick.Dialogs
import QtQuick.Layouts
import Qt.labs.settings
import Isochron.Ui

ApplicationWindow {
    id: window
    property string initialGraph
    property alias darkTheme: viewSettings.dark
    readonly property alias graphDocument: document
    readonly property alias runController: run
    readonly property alias graphCanvas: canvas
    property alias bottomTab: bottomTabs.currentIndex
    width: 1440
    height: 880
    minimumWidth: 900
    minimumHeight: 560
    visible: true
    title: (document.modified ? "● " : "") + document.displayName + (document.graphName.length ? " — " + document.graphName : "") + " — Isochron"
    color: Theme.window

    palette.window: Theme.window
    palette.base: Theme.panel
    palette.alternateBase: Theme.panelAlt
    palette.text: Theme.text
    palette.windowText: Theme.text
    palette.button: Theme.panelAlt
    palette.buttonText: Theme.text
    palette.highlight: Theme.accent
    palette.highlightedText: "white"
    palette.placeholderText: Theme.textFaint
    palette.mid: Theme.border
    palette.dark: Theme.border
    palette.light: Theme.panel
    palette.midlight: Theme.panelAlt
    palette.toolTipBase: Theme.panel
    palette.toolTipText: Theme.text

    GraphDocument { id: document }
    RunController { id: run; document: document; liveValues: viewSettings.liveValues; Component.onCompleted: PluginReloader.attach(run) }
    RecentFiles { id: recent }
    SampleCatalog { id: samples }

    Settings {
        id: viewSettings
        category: "view"
        property alias x: window.x
        property alias y: window.y
        property alias width: window.width
        property alias height: window.height
        property bool dark: false
        property bool snap: true
        property bool minimap: true
        property bool liveValues: true
        property var mainSplit
        property var centerSplit
        property int bottomTab: 0
    }
    Binding { target: Theme; property: "dark"; value: viewSettings.dark }

    Component.onCompleted: {
        if (viewSettings.mainSplit) mainSplit.restoreState(viewSettings.mainSplit)
        if (viewSettings.centerSplit) centerSplit.restoreState(viewSettings.centerSplit)
        if (initialGraph.length) openFile(initialGraph)
    }

    // ---- files ----
    property var pendingAction: null  // what to do once unsaved changes are dealt with
    function whenSaved(action) {
        if (!document.modified) { action(); return }
        pendingAction = action
        unsavedDialog.open()
    }
    function openFile(path) {
        if (document.open(path)) {
            recent.add(document.filePath)
            canvas.requestFit()
        } else {
            errorDialog.text = qsTr("Cannot open %1").arg(path)
            errorDialog.informativeText = document.lastError
            errorDialog.open()
        }
    }
    /// Open a file dialog, or say why it cannot open (a missing QML module would crash Qt's).
    function openFileDialog(dialog) {
        if (DialogSupport.problem.length) {
            errorDialog.text = qsTr("Cannot open a file dialog")
            errorDialog.informativeText = DialogSupport.problem
            errorDialog.open()
            return
        }
        dialog.open()
    }
    function save(then) {
        if (document.filePath.length === 0) { saveDialog.then = then; openFileDialog(saveDialog); return }
        if (document.save()) { recent.add(document.filePath); if (then) then() }
        else { errorDialog.text = qsTr("Cannot save"); errorDialog.informativeText = document.lastError; errorDialog.open() }
    }
    function addNodeAtCentre(typeName) {
        const p = canvas.viewCentre()
        document.addNode(typeName, p.x - 92, p.y - 30)
        canvas.forceActiveFocus()
    }
    function pasteHere() {
        const p = canvas.viewCentre()
        document.paste(Clipboard.text(), p.x - 92, p.y - 30)
    }
    function newWindow() {
        const component = Qt.createComponent("Main.qml")
        component.createObject(null, {x: window.x + 40, y: window.y + 40})
    }

    onClosing: (close) => {
        viewSettings.mainSplit = mainSplit.saveState()
        viewSettings.centerSplit = centerSplit.saveState()
        if (document.modified) {
            close.accepted = false
            whenSaved(() => { document.newGraph(); window.close() })
            return
        }
        run.stopAll()
    }

    // ---- actions (menus, toolbar and shortcuts share them) ----
    Action { id: newAction; text: qsTr("&New"); shortcut: StandardKey.New; onTriggered: whenSaved(() => document.newGraph()) }
    Action { id: newWindowAction; text: qsTr("New &Window"); shortcut: "Ctrl+Shift+N"; onTriggered: newWindow() }
    Action { id: openAction; text: qsTr("&Open…"); shortcut: StandardKey.Open; onTriggered: whenSaved(() => openFileDialog(openDialog)) }
    Action { id: saveAction; text: qsTr("&Save"); shortcut: StandardKey.Save; onTriggered: save() }
    Action { id: saveAsAction; text: qsTr("Save &As…"); shortcut: "Ctrl+Shift+S"; onTriggered: { saveDialog.then = null; openFileDialog(saveDialog) } }
    Action { id: quitAction; text: qsTr("&Quit"); shortcut: StandardKey.Quit; onTriggered: window.close() }
    Action { id: undoAction; text: document.canUndo ? qsTr("&Undo %1").arg(document.undoText) : qsTr("&Undo"); enabled: document.canUndo; shortcut: StandardKey.Undo; onTriggered: document.undo() }
    Action { id: redoAction; text: document.canRedo ? qsTr("&Redo %1").arg(document.redoText) : qsTr("&Redo"); enabled: document.canRedo; shortcut: "Ctrl+Shift+Z"; onTriggered: document.redo() }
    Shortcut { sequence: "Ctrl+Y"; onActivated: document.redo() }
    Action { id: cutAction; text: qsTr("Cu&t"); shortcut: StandardKey.Cut; enabled: document.selection.nodeCount > 0; onTriggered: { Clipboard.setText(document.copySelection()); document.deleteSelection() } }
    Action { id: copyAction; text: qsTr("&Copy"); shortcut: StandardKey.Copy; enabled: document.selection.nodeCount > 0; onTriggered: Clipboard.setText(document.copySelection()) }
    Action { id: pasteAction; text: qsTr("&Paste"); shortcut: StandardKey.Paste; onTriggered: pasteHere() }
    Action { id: duplicateAction; text: qsTr("D&uplicate"); shortcut: "Ctrl+D"; enabled: document.selection.nodeCount > 0; onTriggered: document.duplicateSelection() }
    Action { id: deleteAction; text: qsTr("&Delete"); shortcut: StandardKey.Delete; enabled: !document.selection.empty; onTriggered: document.deleteSelection() }
    Shortcut { sequence: "Backspace"; enabled: canvas.activeFocus; onActivated: document.deleteSelection() }
    Action { id: selectAllAction; text: qsTr("Select &All"); shortcut: StandardKey.SelectAll; onTriggered: document.selection.selectNodes(document.nodes.nodesIn(-1e9, -1e9, 2e9, 2e9)) }
    Action { id: layoutAction; text: qsTr("Auto-&Layout"); shortcut: "Ctrl+L"; enabled: document.nodeCount > 0; onTriggered: { document.autoLayout(); canvas.requestFit() } }
    Action { id: fitAction; text: qsTr("&Fit to View"); shortcut: "F"; onTriggered: canvas.fitToView(false) }
    Shortcut { sequence: "Shift+F"; onActivated: canvas.fitToView(true) }
    Action { id: zoomInAction; text: qsTr("Zoom &In"); shortcut: StandardKey.ZoomIn; onTriggered: canvas.zoomBy(1.25) }
    Action { id: zoomOutAction; text: qsTr("Zoom &Out"); shortcut: StandardKey.ZoomOut; onTriggered: canvas.zoomBy(0.8) }
    Action { id: zoomResetAction; text: qsTr("Actual &Size"); shortcut: "Ctrl+0"; onTriggered: canvas.zoomAt(canvas.width / 2, canvas.height / 2, 1) }
    Action { id: snapAction; text: qsTr("&Snap to Grid"); checkable: true; checked: viewSettings.snap; shortcut: "G"; onToggled: viewSettings.snap = checked }
    Action { id: minimapAction; text: qsTr("&Minimap"); checkable: true; checked: viewSettings.minimap; onToggled: viewSettings.minimap = checked }
    Action { id: liveValuesAction; text: qsTr("&Live Values on Wires"); checkable: true; checked: viewSettings.liveValues; onToggled: viewSettings.liveValues = checked }
    Action { id: darkAction; text: qsTr("&Dark Theme"); checkable: true; checked: viewSettings.dark; onToggled: viewSettings.dark = checked }
    Action { id: runAction; text: qsTr("&Run"); shortcut: "F5"; enabled: !run.running; onTriggered: { bottomTabs.currentIndex = run.localization.available ? 3 : 0; run.start(schedulerBox.currentText === document.schedulerName ? "" : schedulerBox.currentText) } }
    Action { id: stopAction; text: qsTr("&Stop"); shortcut: "Shift+F5"; enabled: run.running; onTriggered: run.stopAll() }
    Action { id: restartAction; text: qsTr("Re&start"); shortcut: "Ctrl+F5"; enabled: run.running; onTriggered: run.restartWith(run.schedulerText) }
    Action { id: reloadPluginsAction; text: qsTr("Re&load Plugins"); shortcut: "Ctrl+Shift+R"; onTriggered: PluginReloader.reloadAll() }
    Action { id: compareAction; text: qsTr("&Compare Schedulers…"); shortcut: "F6"; onTriggered: bottomTabs.currentIndex = 2 }
    Action { id: paletteSearchAction; text: qsTr("Search &Operators"); shortcut: "Ctrl+K"; onTriggered: palettePanel.searchField.forceActiveFocus() }
    Action { id: helpAction; text: qsTr("&Keyboard Shortcuts"); shortcut: "F1"; onTriggered: help.open() }
    Shortcut { sequence: "?"; enabled: canvas.activeFocus; onActivated: help.open() }

    menuBar: MenuBar {
        Menu {
            title: qsTr("&File")
            MenuItem { action: newAction }
            MenuItem { action: newWindowAction }
            MenuItem { action: openAction }
            Menu {
                id: recentMenu
                title: qsTr("Open &Recent")
                enabled: recent.paths.length > 0
                Instantiator {
                    model: recent.paths
                    delegate: MenuItem {
                        required property string modelData
                        text: modelData
                        onTriggered: whenSaved(() => openFile(modelData))
                    }
                    onObjectAdded: (index, object) => recentMenu.insertItem(index, object)
                    onObjectRemoved: (index, object) => recentMenu.removeItem(object)
                }
                MenuSeparator {}
                MenuItem { text: qsTr("Clear List"); onTriggered: recent.clear() }
            }
            Menu {
                id: samplesMenu
                title: qsTr("Sa&mples")
                Instantiator {
                    model: samples.samples
                    delegate: MenuItem {
                        required property var modelData
                        text: modelData.title
                        onTriggered: whenSaved(() => openFile(modelData.path))
                    }
                    onObjectAdded: (index, object) => samplesMenu.insertItem(index, object)
                    onObjectRemoved: (index, object) => samplesMenu.removeItem(object)
                }
            }
            MenuSeparator {}
            MenuItem { action: saveAction }
            MenuItem { action: saveAsAction }
            MenuSeparator {}
            MenuItem { action: quitAction }
        }
        Menu {
            title: qsTr("&Edit")
            MenuItem { action: undoAction }
            MenuItem { action: redoAction }
            MenuSeparator {}
            MenuItem { action: cutAction }
            MenuItem { action: copyAction }
            MenuItem { action: pasteAction }
            MenuItem { action: duplicateAction }
            MenuItem { action: deleteAction }
            MenuSeparator {}
            MenuItem { action: selectAllAction }
            MenuItem { action: layoutAction }
            MenuSeparator {}
            MenuItem { action: subgraphs.group }
            MenuItem { action: subgraphs.ungroup }
            MenuItem { action: subgraphs.openSubgraph }
        }
        Menu {
            title: qsTr("&View")
            MenuItem { action: fitAction }
            MenuItem { action: zoomInAction }
            MenuItem { action: zoomOutAction }
            MenuItem { action: zoomResetAction }
            MenuSeparator {}
            MenuItem { action: snapAction }
            MenuItem { action: minimapAction }
            MenuItem { action: liveValuesAction }
            MenuItem { action: darkAction }
            MenuSeparator {}
            MenuItem { action: paletteSearchAction }
        }
        Menu {
            title: qsTr("&Run")
            MenuItem { action: runAction }
            MenuItem { action: stopAction }
            MenuItem { action: restartAction }
            MenuItem { action: reloadPluginsAction }
            MenuSeparator {}
            MenuItem { action: compareAction }
        }
        Menu {
            title: qsTr("&Help")
            MenuItem { action: helpAction }
        }
    }

    header: ToolBar {
        implicitHeight: 42
        background: Rectangle { color: Theme.panel; Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.border } }
        RowLayout {
            anchors.fill: parent
            anchors.leftMargin: 8
            anchors.rightMargin: 8
            spacing: 4
            IconButton { iconName: "file"; tip: qsTr("New (Ctrl+N)"); onClicked: newAction.trigger() }
            IconButton { iconName: "folder"; tip: qsTr("Open (Ctrl+O)"); onClicked: openAction.trigger() }
            IconButton { iconName: "save"; tip: qsTr("Save (Ctrl+S)"); onClicked: saveAction.trigger() }
            ToolSeparator {}
            IconButton { iconName: "undo"; tip: undoAction.text.replace("&", "") + " (Ctrl+Z)"; enabled: document.canUndo; onClicked: document.undo() }
            IconButton { iconName: "redo"; tip: redoAction.text.replace("&", "") + " (Ctrl+Shift+Z)"; enabled: document.canRedo; onClicked: document.redo() }
            ToolSeparator {}
            IconButton { iconName: "layout"; tip: qsTr("Auto-layout (Ctrl+L)"); enabled: document.nodeCount > 0; onClicked: layoutAction.trigger() }
            IconButton { iconName: "fit"; tip: qsTr("Fit to view (F)"); onClicked: canvas.fitToView(false) }
            IconButton { iconName: "grid"; tip: qsTr("Snap to grid (G)"); checkable: true; checked: viewSettings.snap; onToggled: viewSettings.snap = checked }
            IconButton { iconName: "map"; tip: qsTr("Minimap"); checkable: true; checked: viewSettings.minimap; onToggled: viewSettings.minimap = checked }
            Item { Layout.fillWidth: true }

            Text { text: qsTr("Scheduler"); color: Theme.textDim; font.pixelSize: Theme.smallFontSize }
            ComboBox {
                id: schedulerBox
                objectName: "runScheduler"
                Layout.preferredWidth: 150
                model: document.schedulers().map(s => s.name)
                currentIndex: Math.max(0, model.indexOf(document.schedulerName))
                Connections {
                    target: document
                    function onGraphFieldsChanged() { schedulerBox.currentIndex = Math.max(0, schedulerBox.model.indexOf(document.schedulerName)) }
                }
                onActivated: (index) => {
                    document.setScheduler(model[index])
                    if (run.running) run.restartWith("")
                }
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Switching while running restarts the graph from the same input under the new scheduler")
            }
            IconButton {
                objectName: "runButton"
                iconName: "play"
                text: qsTr("Run")
                iconColor: enabled ? Theme.success : Theme.textFaint
                tip: qsTr("Run the graph (F5)")
                enabled: !run.running
                onClicked: runAction.trigger()
            }
            IconButton {
                objectName: "stopButton"
                iconName: "stop"
                text: qsTr("Stop")
                iconColor: enabled ? Theme.error : Theme.textFaint
                tip: qsTr("Stop (Shift+F5)")
                enabled: run.running
                onClicked: run.stopAll()
            }
            IconButton {
                visible: run.restartNeeded
                iconName: "redo"
                text: qsTr("Restart")
                iconColor: Theme.warning
                tip: qsTr("The graph changed since it started; restart to apply")
                onClicked: run.restartWith("")
            }
            ToolSeparator {}
            IconButton { iconName: "moon"; tip: qsTr("Dark theme"); checkable: true; checked: viewSettings.dark; onToggled: viewSettings.dark = checked }
            IconButton { iconName: "keyboard"; tip: qsTr("Keyboard shortcuts (F1)"); onClicked: help.open() }
        }
    }

    footer: StatusBar { document: document; run: run; zoom: canvas.zoom }

    SplitView {
        id: mainSplit
        anchors.fill: parent
        orientation: Qt.Horizontal
        handle: Rectangle { implicitWidth: 1; implicitHeight: 1; color: Theme.border }

        PalettePanel {
            id: palettePanel
            SplitView.preferredWidth: 230
            SplitView.minimumWidth: 180
            onAddRequested: (typeName) => addNodeAtCentre(typeName)
        }

        SplitView {
            id: centerSplit
            SplitView.fillWidth: true
            orientation: Qt.Vertical
            handle: Rectangle { implicitWidth: 1; implicitHeight: 1; color: Theme.border }

            GraphCanvas {
                id: canvas
                objectName: "canvas"
                SplitView.fillHeight: true
                SplitView.minimumHeight: 200
                document: document
                run: run
                snapToGrid: viewSettings.snap
                showMinimap: viewSettings.minimap
                showLiveValues: viewSettings.liveValues && run.running
                focus: true
                onQuickAddRequested: (sx, sy, cx, cy) => quickAdd.openAt(sx, sy, cx, cy)
                onNodeActivated: (nodeId) => { if (!subgraphs.open(nodeId)) inspectorPanel.forceActiveFocus() }
            }

            Rectangle {
                SplitView.preferredHeight: 290
                SplitView.minimumHeight: 120
                color: Theme.panelAlt
                ColumnLayout {
                    anchors.fill: parent
                    spacing: 0
                    TabBar {
                        id: bottomTabs
                        Layout.fillWidth: true
                        currentIndex: viewSettings.bottomTab
                        onCurrentIndexChanged: viewSettings.bottomTab = currentIndex
                        background: Rectangle { color: Theme.panelHeader; Rectangle { anchors.bottom: parent.bottom; width: parent.width; height: 1; color: Theme.border } }
                        TabLabel { text: qsTr("Live plots") }
                        TabLabel { objectName: "problemsTab"; text: document.problems.count ? qsTr("Problems (%1)").arg(document.problems.count) : qsTr("Problems") }
                        TabLabel { text: qsTr("Compare schedulers") }
                        TabLabel { objectName: "localizationTab"; text: qsTr("Localization"); visible: run.localization.available; width: visible ? implicitWidth : 0 }
                    }
                    StackLayout {
                        Layout.fillWidth: true
                        Layout.fillHeight: true
                        currentIndex: bottomTabs.currentIndex
                        PlotsPanel { document: document; run: run }
                        ProblemsPanel {
                            document: document
                            onProblemActivated: (nodeId) => { document.selection.selectNode(nodeId); canvas.centerOn(nodeId) }
                        }
                        ComparisonPanel { document: document; run: run }
                        LocalizationPanel { objectName: "localizationPanel"; run: run }
                    }
                }
            }
        }

        InspectorPanel {
            id: inspectorPanel
            SplitView.preferredWidth: 290
            SplitView.minimumWidth: 220
            document: document
            running: run.running
        }
    }

    QuickAddPopup {
        id: quickAdd
        parent: canvas
        onChosen: (typeName, cx, cy) => {
            const id = document.addNode(typeName, canvas.snapped(cx), canvas.snapped(cy - 15))
            canvas.completePendingWire(id)
            canvas.forceActiveFocus()
        }
        onDismissed: { canvas.completePendingWire(""); canvas.forceActiveFocus() }
    }
    HelpOverlay { id: help }
    PluginReloadToast { parent: canvas }
    SubgraphActions {
        id: subgraphs
        document: document
        onFailed: (message) => { errorDialog.text = qsTr("Subgraph"); errorDialog.informativeText = message; errorDialog.open() }
    }

    // Dialogs say when they open and close on the "isochron.ui" logging category (off by default;
    // QT_LOGGING_RULES="isochron.ui.info=true" turns it on), so GUI tests can wait for them.
    LoggingCategory { id: uiLog; name: "isochron.ui"; defaultLogLevel: LoggingCategory.Warning }
    function logDialog(dialog, visible) { console.info(uiLog, (visible ? "dialog opened: " : "dialog closed: ") + dialog.title) }

    FileDialog {
        id: openDialog
        title: qsTr("Open graph")
        onVisibleChanged: logDialog(this, visible)
        nameFilters: [qsTr("Isochron graphs (*.isograph.json)"), qsTr("JSON (*.json)")]
        currentFolder: samples.folder.length ? "file://" + samples.folder : ""
        onAccepted: openFile(selectedFile.toString())
    }
    FileDialog {
        id: saveDialog
        property var then: null
        title: qsTr("Save graph as")
        onVisibleChanged: logDialog(this, visible)
        fileMode: FileDialog.SaveFile
        nameFilters: [qsTr("Isochron graphs (*.isograph.json)")]
        defaultSuffix: "isograph.json"
        onAccepted: {
            if (document.saveAs(selectedFile.toString())) {
                recent.add(document.filePath)
                if (then) then()
            } else {
                errorDialog.text = qsTr("Cannot save")
                errorDialog.informativeText = document.lastError
                errorDialog.open()
            }
        }
    }
    MessageDialog {
        id: unsavedDialog
        text: qsTr("Save the changes to %1?").arg(document.displayName)
        informativeText: qsTr("Your changes are lost if you do not save them.")
        buttons: MessageDialog.Save | MessageDialog.Discard | MessageDialog.Cancel
        onButtonClicked: (button, role) => {
            const action = pendingAction
            pendingAction = null
            if (button === MessageDialog.Save) save(action)
            else if (button === MessageDialog.Discard && action) action()
        }
    }
    MessageDialog { id: errorDialog; title: qsTr("Error"); buttons: MessageDialog.Ok; onVisibleChanged: logDialog(this, visible) }
}
