// The graph's scheduler and its parameters (saved in the graph file; used by the next run).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

ColumnLayout {
    id: settings
    property GraphDocument document
    readonly property var schedulers: {
        document.schedulerName
        document.schedulerParams
        return document.schedulers()
    }
    readonly property var current: {
        for (let i = 0; i < schedulers.length; ++i) if (schedulers[i].name === document.schedulerName) return schedulers[i]
        return {name: document.schedulerName, summary: "", params: []}
    }
    spacing: 8

    SectionLabel { text: qsTr("Scheduler") }
    ComboBox {
        objectName: "schedulerChooser"
        Layout.fillWidth: true
        model: settings.schedulers.map(s => s.name)
        currentIndex: model.indexOf(settings.document.schedulerName)
        onActivated: (index) => settings.document.setScheduler(model[index])
    }
    Text {
        Layout.fillWidth: true
        text: settings.current.summary
        color: Theme.textDim
        wrapMode: Text.WordWrap
        font.pixelSize: Theme.smallFontSize
    }
    Repeater {
        model: settings.current.params
        delegate: ParameterEditor {
            required property var modelData
            Layout.fillWidth: true
            param: modelData
            onEdited: (value) => error = settings.document.setSchedulerParameter(modelData.name, value)
            onResetRequested: settings.document.resetSchedulerParameter(modelData.name)
        }
    }
}
