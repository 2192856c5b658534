// The editor's file dialog (every file the editor opens or writes is chosen here): places on the
// left (home, the graph's folder, samples, recent folders), the folder's entries, and a name field
// that takes a file name, an absolute path, "~/..." or a folder to go to. Enter or the button
// ("Open", "Save" or "Choose") accepts; saving over a file asks first, saving into a folder that
// does not exist offers to create it (with every folder above it), and "New Folder" makes one here.
// C++: FolderModel.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Dialog {
    id: picker
    /// "open" (an existing file), "save" (a new file, or replace one after asking), "choose" (any name).
    property string mode: "open"
    /// [{label, patterns: ["*.isograph.json"]}]; the first is used first. No patterns: every file.
    property var filters: [{label: qsTr("All files"), patterns: []}]
    /// Appended when saving a name without it (e.g. ".isograph.json").
    property string defaultSuffix
    /// Extra places: [{label, path}] (the graph's folder, the samples).
    property var places: []
    property RecentFiles recent
    /// The file accepted last (absolute path).
    property string selectedFile
    readonly property alias folder: folderModel.folder
    readonly property string acceptLabel: mode === "save" ? qsTr("Save") : mode === "open" ? qsTr("Open") : qsTr("Choose")
    property string error
    /// A file was chosen (absolute path).
    signal fileChosen(string path)

    /// Show `folder` (if it is one; else the last folder, else home) with `name` in the name field.
    function openIn(folder, name) {
        error = ""
        const start = [folder, recent ? recent.lastFolder : "", folderModel.home()].find(f => f && f.length && folderModel.isFolder(f))
        folderModel.folder = start
        folderModel.refresh()
        nameField.text = name || ""
        open()
    }
    /// Show the folder `path` (or say why not).
    function go(path) {
        folderModel.folder = path
        error = folderModel.error
        list.currentIndex = -1
    }
    /// Enter and the accept button: go into a typed folder, or check the named file and choose it
    /// (a missing folder or, when opening, a missing file is said in the dialog; replacing asks).
    function tryAccept() {
        const typed = nameField.text.trim()
        if (!typed.length) { error = picker.mode === "open" ? qsTr("Pick a file, or type its name") : qsTr("Type a file name"); return }
        const path = folderModel.resolve(typed)
        if (folderModel.isFolder(path)) { go(path); nameField.text = ""; return }
        const file = picker.mode === "save" ? folderModel.withSuffix(path, picker.defaultSuffix) : path
        const parentFolder = file.substring(0, file.lastIndexOf("/")) || "/"
        if (!folderModel.isFolder(parentFolder)) {
            if (picker.mode === "open") { error = qsTr("There is no folder %1").arg(parentFolder); return }
            createFolderBox.file = file
            createFolderBox.folder = parentFolder
            createFolderBox.open()
            return
        }
        if (picker.mode === "open" && !folderModel.isFile(file)) { error = qsTr("There is no file %1").arg(file); return }
        if (picker.mode === "save" && folderModel.isFile(file)) {
            replaceBox.file = file
            replaceBox.open()
            return
        }
        finish(file)
    }
    /// Create `path` (and the folders above it) and show it; false, with the reason shown, if it cannot be made.
    function makeFolder(path) {
        const why = folderModel.makeFolder(path)
        if (why.length) { error = why; return false }
        UiLog.info("folder created: " + path)
        go(path)
        return true
    }
    /// Choose `file`: remember its folder, close, tell.
    function finish(file) {
        selectedFile = file
        if (recent) recent.lastFolder = file.substring(0, file.lastIndexOf("/")) || "/"
        UiLog.info("file chosen: " + file)
        close()
        fileChosen(file)
    }
    function sizeText(bytes) {
        return bytes >= 1048576 ? (bytes / 1048576).toFixed(1) + " MB" : bytes >= 1024 ? (bytes / 1024).toFixed(0) + " kB" : bytes + " B"
    }

    parent: Overlay.overlay
    anchors.centerIn: parent
    modal: true
    focus: true
    width: Math.min(880, parent ? parent.width - 60 : 880)
    height: Math.min(580, parent ? parent.height - 60 : 580)
    padding: 12
    closePolicy: Popup.CloseOnEscape
    onOpened: { UiLog.info("dialog opened: " + title); nameField.forceActiveFocus(); nameField.selectAll() }
    onClosed: UiLog.info("dialog closed: " + title)
    background: Rectangle { color: Theme.panel; radius: 8; border.color: Theme.border }

    FolderModel {
        id: folderModel
        nameFilters: picker.filters[filterBox.currentIndex >= 0 ? filterBox.currentIndex : 0].patterns
    }

    header: RowLayout {
        spacing: 6
        Text {
            Layout.leftMargin: 14
            Layout.topMargin: 12
            text: picker.title
            font.pixelSize: Theme.fontSize + 3
            font.weight: Font.DemiBold
            color: Theme.text
        }
        Item { Layout.fillWidth: true }
    }

    contentItem: ColumnLayout {
        spacing: 8
        RowLayout {  // where we are
            Layout.fillWidth: true
            spacing: 6
            IconButton { iconName: "up"; tip: qsTr("Up to the parent folder"); enabled: folderModel.parentFolder.length > 0; onClicked: picker.go(folderModel.parentFolder) }
            Text {
                objectName: "pickerFolder"
                Layout.fillWidth: true
                text: folderModel.folder
                elide: Text.ElideMiddle
                font.family: Theme.monoFont
                font.pixelSize: Theme.smallFontSize
                color: Theme.textDim
            }
            TextField {  // the new folder's name, while "New Folder" is asking
                id: newFolderField
                objectName: "pickerNewFolderName"
                visible: false
                Layout.preferredWidth: 220
                selectByMouse: true
                placeholderText: qsTr("new folder's name")
                function create() {
                    const name = text.trim()
                    if (!name.length) { picker.error = qsTr("Type the new folder's name"); return }
                    if (picker.makeFolder(folderModel.resolve(name))) { visible = false; nameField.forceActiveFocus() }
                }
                Keys.onReturnPressed: create()
                Keys.onEnterPressed: create()
                Keys.onEscapePressed: { visible = false; nameField.forceActiveFocus() }
                onTextEdited: picker.error = ""
            }
            Button {
                objectName: "pickerNewFolder"
                visible: picker.mode !== "open"
                text: newFolderField.visible ? qsTr("Create") : qsTr("New Folder")
                onClicked: {
                    if (newFolderField.visible) { newFolderField.create(); return }
                    newFolderField.text = qsTr("New Folder")
                    newFolderField.visible = true
                    newFolderField.forceActiveFocus()
                    newFolderField.selectAll()
                }
            }
        }
        RowLayout {
            Layout.fillWidth: true
            Layout.fillHeight: true
            spacing: 8
            ListView {  // places
                id: placeList
                Layout.preferredWidth: 190
                Layout.fillHeight: true
                clip: true
                // Built while shown: recent folders change as files are saved. A folder is listed once
                // (a recent one that is also a place shows as the place), a recent one as "parent/name".
                model: {
                    if (!picker.visible) return []
                    const fixed = [{label: qsTr("Home"), path: folderModel.home(), icon: "home"}]
                        .concat(picker.places.filter(p => p.path && p.path.length).map(p => Object.assign({icon: "folder"}, p)))
                    const bare = (path) => path.length > 1 && path.endsWith("/") ? path.substring(0, path.length - 1) : path
                    const shown = fixed.map(p => bare(p.path))
                    const recent = (picker.recent ? picker.recent.folders : []).map(bare).filter(f => shown.indexOf(f) < 0).slice(0, 6)
                    return fixed.concat(recent.map(f => ({label: f.split("/").slice(-2).join("/") || "/", path: f, icon: "clock"})))
                }
                delegate: ItemDelegate {
                    required property var modelData
                    width: ListView.view.width
                    height: 30
                    highlighted: folderModel.folder === modelData.path
                    contentItem: Row {
                        spacing: 8
                        Icon { name: modelData.icon; size: 15; color: Theme.textDim; anchors.verticalCenter: parent.verticalCenter }
                        Text {
                            anchors.verticalCenter: parent.verticalCenter
                            width: 150
                            text: modelData.label
                            elide: Text.ElideRight
                            font.pixelSize: Theme.smallFontSize + 1
                            color: Theme.text
                        }
                    }
                    ToolTip.visible: hovered
                    ToolTip.delay: 600
                    ToolTip.text: modelData.path
                    onClicked: picker.go(modelData.path)
                }
            }
            Rectangle {
                Layout.fillWidth: true
                Layout.fillHeight: true
                color: Theme.panelAlt
                radius: 4
                border.color: Theme.border
                ListView {
                    id: list
                    objectName: "pickerList"
                    anchors.fill: parent
                    anchors.margins: 2
                    clip: true
                    model: folderModel
                    currentIndex: -1
                    boundsBehavior: Flickable.StopAtBounds
                    ScrollBar.vertical: ScrollBar {}
                    delegate: Rectangle {
                        id: entry
                        required property int index
                        required property string name
                        required property string path
                        required property bool isFolder
                        required property real size
                        required property var modified
                        width: ListView.view.width
                        height: 28
                        color: ListView.isCurrentItem ? Theme.accentSoft : hover.hovered ? Theme.hover : "transparent"
                        RowLayout {
                            anchors.fill: parent
                            anchors.leftMargin: 8
                            anchors.rightMargin: 10
                            spacing: 8
                            Icon { name: entry.isFolder ? "folder" : "file"; size: 15; color: entry.isFolder ? Theme.accent : Theme.textDim }
                            Text { Layout.fillWidth: true; text: entry.name; elide: Text.ElideMiddle; font.pixelSize: Theme.fontSize; color: Theme.text }
                            Text { visible: !entry.isFolder; text: picker.sizeText(entry.size); font.pixelSize: Theme.smallFontSize; color: Theme.textDim }
                            Text { text: Qt.formatDateTime(entry.modified, "yyyy-MM-dd hh:mm"); font.pixelSize: Theme.smallFontSize; color: Theme.textFaint }
                        }
                        HoverHandler { id: hover }
                        TapHandler {
                            onTapped: {
                                list.currentIndex = entry.index
                                if (!entry.isFolder) nameField.text = entry.name
                            }
                            onDoubleTapped: {
                                if (entry.isFolder) { picker.go(entry.path); return }
                                nameField.text = entry.name
                                picker.tryAccept()
                            }
                        }
                    }
                    Text {
                        visible: list.count === 0
                        anchors.centerIn: parent
                        text: folderModel.error.length ? folderModel.error : qsTr("No matching files here")
                        color: Theme.textDim
                        font.pixelSize: Theme.fontSize
                    }
                }
            }
        }
        RowLayout {
            Layout.fillWidth: true
            spacing: 8
            Text { text: picker.mode === "open" ? qsTr("File") : qsTr("Name"); color: Theme.text; font.pixelSize: Theme.fontSize }
            TextField {
                id: nameField
                objectName: "pickerName"
                Layout.fillWidth: true
                selectByMouse: true
                placeholderText: picker.mode === "open" ? qsTr("a file here, or a path (/…, ~/…)") : qsTr("a name here, or a path (/…, ~/…)")
                onTextEdited: picker.error = ""
                Keys.onReturnPressed: picker.tryAccept()
                Keys.onEnterPressed: picker.tryAccept()
                Keys.onDownPressed: {
                    list.incrementCurrentIndex()
                    if (list.currentItem && !list.currentItem.isFolder) text = list.currentItem.name
                }
                Keys.onUpPressed: {
                    list.decrementCurrentIndex()
                    if (list.currentItem && !list.currentItem.isFolder) text = list.currentItem.name
                }
            }
            ComboBox {
                id: filterBox
                Layout.preferredWidth: 230
                model: picker.filters.map(f => f.label)
            }
        }
        Text {
            objectName: "pickerError"
            Layout.fillWidth: true
            visible: picker.error.length > 0
            text: picker.error
            color: Theme.error
            wrapMode: Text.WordWrap
            font.pixelSize: Theme.smallFontSize
        }
    }

    footer: RowLayout {
        spacing: 8
        Item { Layout.fillWidth: true }
        Button { Layout.bottomMargin: 12; text: qsTr("Cancel"); onClicked: picker.close() }
        Button {
            objectName: "pickerAccept"
            Layout.bottomMargin: 12
            Layout.rightMargin: 12
            text: picker.acceptLabel
            highlighted: true
            onClicked: picker.tryAccept()
        }
    }

    MessageBox {
        id: replaceBox
        property string file
        title: qsTr("Replace file?")
        text: qsTr("%1 already exists. Replace it?").arg(file.substring(file.lastIndexOf("/") + 1))
        informativeText: file
        buttons: [{text: qsTr("Replace"), role: "accept", isDefault: true, destructive: true}, {text: qsTr("Cancel"), role: "reject"}]
        onChosen: (role) => { if (role === "accept") picker.finish(file); else nameField.forceActiveFocus() }
    }
    MessageBox {
        id: createFolderBox
        objectName: "createFolderBox"
        property string file
        property string folder
        title: qsTr("Create folder?")
        text: qsTr("There is no folder %1 yet. Create it and save %2 there?").arg(folder).arg(file.substring(file.lastIndexOf("/") + 1))
        informativeText: qsTr("Every missing folder on the way is created.")
        buttons: [{text: qsTr("Create and Save"), role: "accept", isDefault: true}, {text: qsTr("Cancel"), role: "reject"}]
        onChosen: (role) => {
            if (role === "accept" && picker.makeFolder(folder)) picker.finish(file)
            else nameField.forceActiveFocus()
        }
    }
}
