// The inspector: the selected node's id, operator docs, typed parameter editors, ports and note;
// with nothing selected, the graph's name, description and scheduler.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: inspector
    property GraphDocument document
    property bool running: false
    readonly property string nodeId: document.selection.nodeCount === 1 ? document.selection.nodes[0] : ""
    signal parameterApplied(string nodeId, string name)
    color: Theme.panel

    readonly property var node: {
        document.revision
        return nodeId.length ? document.nodes.get(nodeId) : ({})
    }
    readonly property var params: {
        document.revision
        return nodeId.length ? document.parametersOf(nodeId) : []
    }
    readonly property var info: nodeId.length ? document.operatorOf(nodeId) : ({})

    /// Say on UiLog where each visible parameter's field is on the screen (tests type into them).
    /// False, saying nothing, while the layout has not placed them yet (they would not go down the panel).
    function logFields() {
        const fields = []
        let lastY = -1
        for (let i = 0; i < parameterEditors.count; ++i) {
            const editor = parameterEditors.itemAt(i)
            const p = editor ? editor.fieldCentre() : null
            if (!p || p.y <= lastY) return false
            lastY = p.y
            if (p.y < scroll.mapToGlobal(0, scroll.height).y) fields.push(editor.param.name + "@" + Math.round(p.x) + "," + Math.round(p.y))
        }
        UiLog.info("inspector " + nodeId + ": " + fields.join(" "))
        return true
    }
    // Logged after the first frame in which the layout has placed the fields.
    property bool fieldsToLog: false
    onNodeIdChanged: fieldsToLog = nodeId.length > 0
    Connections {
        target: inspector.Window.window
        enabled: inspector.fieldsToLog
        function onFrameSwapped() { if (inspector.logFields()) inspector.fieldsToLog = false }
    }

    ColumnLayout {
        anchors.fill: parent
        spacing: 0
        PanelHeader { Layout.fillWidth: true; title: inspector.nodeId.length ? qsTr("Inspector") : qsTr("Graph") }

        ScrollView {
            id: scroll
            Layout.fillWidth: true
            Layout.fillHeight: true
            contentWidth: availableWidth
            clip: true

            ColumnLayout {
                width: scroll.availableWidth
                spacing: 10

                // ---- a node ----
                ColumnLayout {
                    visible: inspector.nodeId.length > 0
                    Layout.fillWidth: true
                    Layout.margins: 12
                    spacing: 8
                    RowLayout {
                        spacing: 8
                        Rectangle { width: 6; height: 22; radius: 3; color: Theme.categoryColor(inspector.info.category || "") }
                        TextField {
                            id: idField
                            objectName: "nodeIdField"
                            Layout.fillWidth: true
                            text: inspector.nodeId
                            Connections { target: inspector; function onNodeChanged() { idField.text = inspector.nodeId } }
                            font.bold: true
                            font.pixelSize: Theme.fontSize + 2
                            onEditingFinished: {
                                if (text === inspector.nodeId) return
                                const why = inspector.document.renameNode(inspector.nodeId, text)
                                renameError.text = why
                                if (why.length) text = inspector.nodeId
                            }
                        }
                    }
                    Text { id: renameError; Layout.fillWidth: true; wrapMode: Text.WordWrap; visible: text.length > 0; color: Theme.error; font.pixelSize: Theme.smallFontSize }
                    Text {  // a plugin's or subgraph file's path can be long: elided in its middle, whole on hover
                        objectName: "inspectorOrigin"
                        Layout.fillWidth: true
                        text: (inspector.info.typeName || "") + (inspector.info.origin && inspector.info.origin !== "built-in" ? "  ·  " + inspector.info.origin : "")
                        color: Theme.textDim
                        font.family: Theme.monoFont
                        font.pixelSize: Theme.smallFontSize
                        elide: Text.ElideMiddle
                        ToolTip.visible: originHover.hovered && truncated
                        ToolTip.text: text
                        HoverHandler { id: originHover }
                    }
                    Text {
                        Layout.fillWidth: true
                        text: inspector.info.summary || ""
                        color: Theme.text
                        wrapMode: Text.WordWrap
                        font.pixelSize: Theme.fontSize
                    }
                    Text {
                        Layout.fillWidth: true
                        visible: text.length > 0
                        text: inspector.info.documentation || ""
                        color: Theme.textDim
                        wrapMode: Text.WordWrap
                        font.pixelSize: Theme.smallFontSize
                    }
                    Repeater {  // problems on this node
                        model: inspector.node.problems || []
                        delegate: Text {
                            required property string modelData
                            Layout.fillWidth: true
                            text: "⚠ " + modelData
                            color: Theme.error
                            wrapMode: Text.WordWrap
                            font.pixelSize: Theme.smallFontSize
                        }
                    }
                    SectionLabel { text: qsTr("Parameters"); visible: inspector.params.length > 0 }
                    Repeater {
                        id: parameterEditors
                        model: inspector.params
                        delegate: ParameterEditor {
                            id: parameterEditor
                            required property var modelData
                            Layout.fillWidth: true
                            param: modelData
                            // An undo, redo or reset of this parameter changes no structure: take its new view here.
                            Connections {
                                target: inspector.document
                                function onParameterChanged(nodeId, name) {
                                    if (nodeId !== inspector.nodeId || name !== parameterEditor.modelData.name) return
                                    const fresh = inspector.document.parametersOf(nodeId).find(p => p.name === name)
                                    if (fresh) parameterEditor.param = fresh
                                }
                            }
                            running: inspector.running
                            baseFolder: inspector.document.baseDirectory
                            onEdited: (value) => {
                                error = inspector.document.setParameter(inspector.nodeId, modelData.name, value)
                                if (!error.length) inspector.parameterApplied(inspector.nodeId, modelData.name)
                            }
                            onResetRequested: inspector.document.resetParameter(inspector.nodeId, modelData.name)
                        }
                    }
                    Repeater {  // inputs, then outputs, each under its own heading
                        model: [{title: qsTr("Inputs"), ports: inspector.node.inputs || []}, {title: qsTr("Outputs"), ports: inspector.node.outputs || []}]
                        delegate: ColumnLayout {
                            required property var modelData
                            Layout.fillWidth: true
                            visible: modelData.ports.length > 0
                            spacing: 4
                            SectionLabel { text: modelData.title }
                            Repeater {
                                model: modelData.ports
                                delegate: RowLayout {
                                    required property var modelData
                                    Layout.fillWidth: true
                                    spacing: 6
                                    Rectangle { width: 9; height: 9; radius: 5; color: modelData.color }
                                    Text { objectName: "inspectorPort"; text: modelData.name; color: Theme.text; font.pixelSize: Theme.smallFontSize; font.family: Theme.monoFont }
                                    Text { text: modelData.type; color: Theme.textDim; font.pixelSize: Theme.smallFontSize; font.family: Theme.monoFont }
                                    Text {
                                        Layout.fillWidth: true
                                        text: modelData.doc
                                        color: Theme.textFaint
                                        font.pixelSize: Theme.smallFontSize
                                        elide: Text.ElideRight
                                        ToolTip.visible: portDocHover.hovered && truncated
                                        ToolTip.text: modelData.doc
                                        HoverHandler { id: portDocHover }
                                    }
                                }
                            }
                        }
                    }
                    SectionLabel { text: qsTr("Partition") }
                    RowLayout {
                        spacing: 8
                        Rectangle { width: 12; height: 12; radius: 2; visible: partitionBox.value >= 0; color: Theme.partitionColor(partitionBox.value) }
                        SpinBox {
                            id: partitionBox
                            objectName: "partitionBox"
                            from: -1
                            to: inspector.document.maxPartition
                            editable: true
                            value: inspector.node.partition === undefined ? -1 : inspector.node.partition
                            textFromValue: (value) => value < 0 ? qsTr("none") : qsTr("rank %1").arg(value)
                            valueFromText: (text) => { const n = parseInt(text.replace(/[^0-9]/g, "")); return isNaN(n) ? -1 : n }
                            onValueModified: inspector.document.setPartitionOfSelection(value)
                        }
                        Text {
                            Layout.fillWidth: true
                            wrapMode: Text.WordWrap
                            text: qsTr("The rank that runs this node under mpirun (docs/scale-out.md); in one process it is ignored.")
                            font.pixelSize: Theme.smallFontSize
                            color: Theme.textDim
                        }
                    }
                    SectionLabel { text: qsTr("Note") }
                    TextArea {
                        id: commentField
                        Layout.fillWidth: true
                        placeholderText: qsTr("A note shown above the node")
                        text: inspector.node.comment || ""
                        Connections { target: inspector; function onNodeChanged() { if (!commentField.activeFocus) commentField.text = inspector.node.comment || "" } }
                        wrapMode: TextArea.Wrap
                        onEditingFinished: inspector.document.setComment(inspector.nodeId, text)
                    }
                }

                // ---- the graph ----
                ColumnLayout {
                    visible: inspector.nodeId.length === 0
                    Layout.fillWidth: true
                    Layout.margins: 12
                    spacing: 8
                    SectionLabel { text: qsTr("Name") }
                    TextField {
                        id: graphNameField
                        objectName: "graphNameField"
                        Layout.fillWidth: true
                        text: inspector.document.graphName
                        placeholderText: qsTr("Untitled graph")
                        // A long name shows its start, not where the cursor was left.
                        onTextChanged: if (!activeFocus) cursorPosition = 0
                        onActiveFocusChanged: if (!activeFocus) cursorPosition = 0
                        onEditingFinished: inspector.document.graphName = text
                        Connections { target: inspector.document; function onGraphFieldsChanged() { graphNameField.text = inspector.document.graphName } }
                    }
                    SectionLabel { text: qsTr("Description") }
                    TextArea {
                        id: descriptionField
                        Layout.fillWidth: true
                        text: inspector.document.description
                        Connections { target: inspector.document; function onGraphFieldsChanged() { if (!descriptionField.activeFocus) descriptionField.text = inspector.document.description } }
                        wrapMode: TextArea.Wrap
                        placeholderText: qsTr("What this graph does")
                        onEditingFinished: inspector.document.description = text
                    }
                    Text {
                        Layout.fillWidth: true
                        text: inspector.document.selection.nodeCount > 1
                              ? qsTr("%1 nodes selected").arg(inspector.document.selection.nodeCount)
                              : qsTr("%1 nodes, %2 wires").arg(inspector.document.nodeCount).arg(inspector.document.edges.rowCount())
                        color: Theme.textDim
                        font.pixelSize: Theme.smallFontSize
                    }
                    SchedulerSettings {
                        Layout.fillWidth: true
                        document: inspector.document
                    }
                }
            }
        }
    }
}
