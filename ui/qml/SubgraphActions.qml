// The subgraph actions of one editor window: group the selection into a new graph file (Ctrl+G: a
// file name, then which of the parameters the nodes set the subgraph node shows), ungroup the
// selected subgraph node (Ctrl+Shift+G), open a subgraph node's file in a new window.
import QtQuick
import QtQuick.Controls
import Isochron.Ui

Item {
    id: actions
    required property GraphDocument document
    /// For the file dialog's places and last folder.
    property RecentFiles recent
    /// An action could not be done; `message` says why.
    signal failed(string message)

    /// The selected node when it is the only one and a subgraph, else "".
    readonly property string selectedSubgraph: document.revision >= 0 && document.selection.nodeCount === 1
                                                && document.subgraphFileOf(document.selection.nodes[0]).length > 0
                                                ? document.selection.nodes[0] : ""

    readonly property Action group: Action {
        text: qsTr("&Group into Subgraph…")
        shortcut: "Ctrl+G"
        enabled: actions.document.selection.nodeCount > 0
        onTriggered: {
            const suggested = actions.document.suggestedSubgraphPath()
            groupDialog.openIn(suggested.substring(0, suggested.lastIndexOf("/")), suggested.substring(suggested.lastIndexOf("/") + 1))
        }
    }
    readonly property Action ungroup: Action {
        text: qsTr("U&ngroup")
        shortcut: "Ctrl+Shift+G"
        enabled: actions.selectedSubgraph.length > 0
        onTriggered: actions.report(actions.document.ungroup(actions.selectedSubgraph))
    }
    readonly property Action openSubgraph: Action {
        text: qsTr("Open Su&bgraph")
        enabled: actions.selectedSubgraph.length > 0
        onTriggered: actions.open(actions.selectedSubgraph)
    }

    /// Open the file of subgraph node `nodeId` in a new window; false for an operator node.
    function open(nodeId) {
        const path = document.subgraphFileOf(nodeId)
        if (path.length === 0) return false
        const component = Qt.createComponent("Main.qml")
        const window = component.status === Component.Ready ? component.createObject(null, {initialGraph: path}) : null
        if (!window) actions.report(qsTr("Cannot open a window for %1: %2").arg(path).arg(component.errorString()))
        return true
    }
    function report(why) {
        if (why.length) failed(why)
    }

    FilePicker {
        id: groupDialog
        title: qsTr("Save the subgraph as")
        mode: "save"
        recent: actions.recent
        defaultSuffix: ".isograph.json"
        filters: [{label: qsTr("Isochron graphs (*.isograph.json)"), patterns: ["*.isograph.json"]}]
        onFileChosen: (path) => {
            const parameters = actions.document.selectionParameters()
            if (parameters.length === 0) {
                actions.report(actions.document.groupSelection(path, []))
                return
            }
            parameterDialog.file = path
            parameterDialog.choices = parameters.map(name => ({name: name, exposed: true}))
            parameterDialog.open()
        }
    }
    Dialog {
        id: parameterDialog
        objectName: "exposedParametersDialog"
        property string file
        property var choices: []
        parent: Overlay.overlay
        anchors.centerIn: parent
        modal: true
        title: qsTr("Parameters the subgraph node shows")
        standardButtons: Dialog.Ok | Dialog.Cancel
        onOpened: UiLog.info("dialog opened: " + title)
        onClosed: UiLog.info("dialog closed: " + title)
        Column {
            spacing: 4
            Label { text: qsTr("The others keep their values inside the file.") }
            Repeater {
                model: parameterDialog.choices
                CheckBox {
                    required property var modelData
                    required property int index
                    text: modelData.name
                    checked: modelData.exposed
                    onToggled: parameterDialog.choices[index].exposed = checked
                }
            }
        }
        onAccepted: actions.report(actions.document.groupSelection(file, choices.filter(c => c.exposed).map(c => c.name)))
    }
}
