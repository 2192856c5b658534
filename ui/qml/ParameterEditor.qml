// One typed parameter in the inspector: a switch, number field with range and unit, choice box,
// path with a browse button, or text; invalid input is refused with the engine's reason.
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

ColumnLayout {
    id: editor
    property var param            // from GraphDocument.parametersOf / schedulers()
    property bool running: false  // the graph runs: live parameters apply at once
    /// Folder relative paths are resolved against (the graph's), where a path's file dialog starts.
    property string baseFolder
    property string error: ""
    signal edited(var value)      // a string (parsed as on the command line) or a boolean/choice
    signal resetRequested()
    spacing: 3

    readonly property string rangeText: {
        if (param.minimum === undefined && param.maximum === undefined) return ""
        if (param.minimum !== undefined && param.maximum !== undefined) return param.minimum + " … " + param.maximum
        return param.minimum !== undefined ? "≥ " + param.minimum : "≤ " + param.maximum
    }

    RowLayout {
        Layout.fillWidth: true
        spacing: 6
        Text {
            text: editor.param.name
            color: Theme.text
            font.pixelSize: Theme.fontSize
            font.weight: editor.param.isDefault ? Font.Normal : Font.DemiBold
        }
        Text { visible: editor.param.unit.length > 0; text: "[" + editor.param.unit + "]"; color: Theme.textDim; font.pixelSize: Theme.smallFontSize }
        Rectangle {
            visible: editor.param.live
            implicitWidth: liveText.implicitWidth + 8; implicitHeight: 15; radius: 3
            color: editor.running ? Theme.success : Theme.accentSoft
            Text { id: liveText; anchors.centerIn: parent; text: qsTr("live"); font.pixelSize: 9; color: editor.running ? "white" : Theme.accent }
            ToolTip.visible: liveHover.containsMouse
            ToolTip.text: qsTr("Changes apply to the running graph at once")
            MouseArea { id: liveHover; anchors.fill: parent; hoverEnabled: true }
        }
        Item { Layout.fillWidth: true }
        ToolButton {
            visible: !editor.param.isDefault
            implicitWidth: 22; implicitHeight: 20
            text: "↺"
            font.pixelSize: 13
            onClicked: editor.resetRequested()
            ToolTip.visible: hovered
            ToolTip.text: qsTr("Back to the default (%1)").arg(editor.param.defaultText)
        }
    }

    /// The middle of the value's field, in screen coordinates.
    function fieldCentre() { return valueEditor.item ? valueEditor.item.mapToGlobal(valueEditor.item.width / 2, valueEditor.item.height / 2) : null }

    Loader {
        id: valueEditor
        Layout.fillWidth: true
        sourceComponent: {
            switch (editor.param.kind) {
            case "bool": return boolEditor
            case "choice": return choiceEditor
            case "path": return pathEditor
            default: return textEditor
            }
        }
    }
    Text {
        Layout.fillWidth: true
        visible: editor.error.length > 0 || (editor.param.problem || "").length > 0
        text: editor.error.length ? editor.error : editor.param.problem
        color: Theme.error
        font.pixelSize: Theme.smallFontSize
        wrapMode: Text.WordWrap
    }
    Text {
        Layout.fillWidth: true
        text: editor.param.doc + (editor.rangeText.length ? "  (" + editor.rangeText + ")" : "")
        color: Theme.textDim
        font.pixelSize: Theme.smallFontSize
        wrapMode: Text.WordWrap
    }

    Component {
        id: boolEditor
        Switch {
            id: toggle
            checked: editor.param.value === true
            onToggled: editor.edited(checked)
            Connections { target: editor; function onParamChanged() { toggle.checked = editor.param.value === true } }
        }
    }
    Component {
        id: choiceEditor
        ComboBox {
            id: choice
            model: editor.param.choices
            currentIndex: editor.param.choices.indexOf(editor.param.text)
            onActivated: (index) => editor.edited(editor.param.choices[index])
            Connections { target: editor; function onParamChanged() { choice.currentIndex = editor.param.choices.indexOf(editor.param.text) } }
        }
    }
    Component {
        id: textEditor
        TextField {
            id: field
            objectName: "parameterField"
            text: editor.param.text
            // Typing breaks the binding: an undo, a redo or a reset must still show the new value.
            Connections { target: editor; function onParamChanged() { field.text = editor.param.text } }
            selectByMouse: true
            font.family: editor.param.kind === "string" ? "" : Theme.monoFont
            color: editor.error.length ? Theme.error : Theme.text
            onEditingFinished: if (text !== editor.param.text) editor.edited(text)
            onTextEdited: editor.error = ""
        }
    }
    Component {
        id: pathEditor
        RowLayout {
            spacing: 4
            TextField {
                id: pathField
                Layout.fillWidth: true
                text: editor.param.text
                Connections { target: editor; function onParamChanged() { pathField.text = editor.param.text } }
                selectByMouse: true
                onEditingFinished: if (text !== editor.param.text) editor.edited(text)
            }
            Button {
                objectName: "browseButton"
                text: "…"
                implicitWidth: 30
                onClicked: {
                    const current = browse.resolvePath(pathField.text)
                    const slash = current.lastIndexOf("/")
                    browse.openIn(slash > 0 ? current.substring(0, slash) : editor.baseFolder, slash >= 0 ? current.substring(slash + 1) : "")
                }
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Choose a file")
            }
            FilePicker {
                id: browse
                function resolvePath(text) { return text.length === 0 ? "" : text.startsWith("/") ? text : editor.baseFolder + "/" + text }
                title: qsTr("Choose a file for %1").arg(editor.param.name)
                mode: "choose"
                // A file in or below the graph's folder stays relative, so the graph can move with it.
                onFileChosen: (path) => editor.edited(editor.baseFolder.length && path.startsWith(editor.baseFolder + "/") ? path.substring(editor.baseFolder.length + 1) : path)
            }
        }
    }
}
